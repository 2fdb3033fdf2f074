// Validation of a parsed config against the schema documented in config/default.toml.
#include <spdlog/common.h>

#include <array>
#include <regex>
#include <string>

#include "closest_name.hpp"
#include "config_impl.hpp"
#include "plexus/byte_size.hpp"
#include "plexus/error.hpp"
#include "toml_location.hpp"

namespace plexus::detail {

namespace {

constexpr std::array<std::string_view, 12> top_level_tables = {
    "config",   "log",       "plugins", "trace", "program_cache", "backends",
    "scheduler", "memory",  "cache",   "compiler", "fusion", "graphs"};

std::string joined(const auto& names) {
  std::string text;
  for (const auto& name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

class SchemaChecker {
 public:
  explicit SchemaChecker(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const toml::node& node, const std::string& what) const {
    throw error(error_category::config, node_location(source_, node) + ": " + what);
  }

  void expect_type(const toml::node& node, const std::string& key, toml::node_type type,
                   std::string_view expected) const {
    if (node.type() != type) {
      fail(node, "'" + key + "' must be " + std::string(expected) + ", found " +
                     std::string(node_type_name(node.type())) + " " + node_value_text(node));
    }
  }

  void expect_component_name(const toml::node& node, const std::string& key) const {
    static const std::regex pattern("[a-z0-9_]+");
    const std::string& name = node.as_string()->get();
    if (!std::regex_match(name, pattern) || name.find("__") != std::string::npos) {
      fail(node, "'" + key + "' names component '" + name +
                     "': component names are lower-case letters, digits and single underscores");
    }
  }

  void expect_string_array(const toml::node& node, const std::string& key) const {
    expect_type(node, key, toml::node_type::array, "an array of strings");
    for (const auto& element : *node.as_array()) {
      expect_type(element, key + "[]", toml::node_type::string, "a string");
    }
  }

  void check_log(const toml::table& table) const {
    for (const auto& [key, node] : table) {
      std::string path = "log." + std::string(key.str());
      if (key.str() != "level") fail(node, "unknown key '" + path + "' (expected: level)");
      expect_type(node, path, toml::node_type::string, "a string");
      const std::string& level = node.as_string()->get();
      if (spdlog::level::from_str(level) == spdlog::level::off && level != "off") {
        fail(node, "'log.level' is '" + level +
                       "' (expected one of: trace, debug, info, warn, error, critical, off)");
      }
    }
  }

  // `[config] base`: "inherited" (the default: this layer goes on top of the ones below) or
  // "none" (start from nothing).
  void check_config(const toml::table& table) const {
    for (const auto& [key, node] : table) {
      std::string path = "config." + std::string(key.str());
      if (key.str() != "base") fail(node, "unknown key '" + path + "' (expected: base)");
      expect_type(node, path, toml::node_type::string, "a string");
      const std::string& base = node.as_string()->get();
      if (base != "none" && base != "inherited") {
        fail(node, "'config.base' is '" + base +
                       "' (expected \"none\": start from nothing, or \"inherited\": on top of "
                       "the built-in default and the files below this one)");
      }
    }
  }

  void check_trace(const toml::table& table) const {
    for (const auto& [key, node] : table) {
      std::string path = "trace." + std::string(key.str());
      if (key.str() != "file") fail(node, "unknown key '" + path + "' (expected: file)");
      expect_type(node, path, toml::node_type::string, "a string (the trace file's path)");
    }
  }

  void check_program_cache(const toml::table& table) const {
    for (const auto& [key, node] : table) {
      std::string path = "program_cache." + std::string(key.str());
      if (key.str() != "max_bytes") fail(node, "unknown key '" + path + "' (expected: max_bytes)");
      if (!byte_size_value(node)) {
        fail(node, "'" + path +
                       "' must be a size in bytes, 0 or more (an integer, or a string "
                       "such as \"256MiB\"; 0 = unbounded), found " +
                       std::string(node_type_name(node.type())) + " " + node_value_text(node));
      }
    }
  }

  // `[graphs]`: auto (a boolean), auto_repeats, auto_max_period, auto_batch (integers).
  void check_graphs(const toml::table& table) const {
    struct Limit {
      std::string_view key;
      std::int64_t low, high;
    };
    static constexpr std::array<Limit, 3> limits = {
        Limit{"auto_repeats", 2, 64}, Limit{"auto_max_period", 1, 1024}, Limit{"auto_batch", 1, 4096}};
    for (const auto& [key, node] : table) {
      std::string path = "graphs." + std::string(key.str());
      if (key.str() == "auto") {
        expect_type(node, path, toml::node_type::boolean, "true or false");
        continue;
      }
      const auto limit = std::find_if(limits.begin(), limits.end(),
                                      [&](const Limit& l) { return l.key == key.str(); });
      if (limit == limits.end())
        fail(node, "unknown key '" + path +
                       "' (expected: auto, auto_repeats, auto_max_period, auto_batch)");
      const auto value = node.value<std::int64_t>();
      if (!node.is_integer() || !value || *value < limit->low || *value > limit->high)
        fail(node, "'" + path + "' must be an integer from " + std::to_string(limit->low) +
                       " to " + std::to_string(limit->high) + ", found " +
                       std::string(node_type_name(node.type())) + " " + node_value_text(node));
    }
  }

  void check_plugins(const toml::table& table) const {
    for (const auto& [key, node] : table) {
      std::string path = "plugins." + std::string(key.str());
      if (key.str() != "paths") fail(node, "unknown key '" + path + "' (expected: paths)");
      expect_string_array(node, path);
    }
  }

  // `use` selects; every other key is an implementation's option table.
  void check_kind(const std::string& table_name, const toml::table& table) const {
    const bool is_backends = table_name == "backends";
    for (const auto& [key, node] : table) {
      std::string path = table_name + "." + std::string(key.str());
      if (key.str() == "use") {
        if (is_backends && node.is_array()) {
          expect_string_array(node, path);
          for (const auto& element : *node.as_array()) expect_component_name(element, path);
        } else {
          expect_type(node, path, toml::node_type::string,
                      is_backends ? "an array of strings" : "a string");
          expect_component_name(node, path);
        }
      } else if (is_backends && key.str() == "skip_missing") {
        expect_type(node, path, toml::node_type::boolean, "a boolean");
      } else if (!node.is_table()) {
        fail(node, "'" + path + "' must be a table of options for the " + table_name + " '" +
                       std::string(key.str()) + "' (found " +
                       std::string(node_type_name(node.type())) + "); the selection key is '" +
                       table_name + ".use'");
      }
    }
  }

 private:
  const std::string& source_;
};

}  // namespace

void validate_config(const toml::table& table, const std::string& source_name) {
  SchemaChecker checker(source_name);
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    bool known = false;
    for (auto candidate : top_level_tables) known = known || candidate == name;
    if (!known) {
      const std::vector<std::string> names(top_level_tables.begin(), top_level_tables.end());
      checker.fail(node, "unknown table '" + name + "'" + did_you_mean(name, names) +
                             " (expected one of: " + joined(top_level_tables) + ")");
    }
    checker.expect_type(node, name, toml::node_type::table, "a table");
    const toml::table& sub = *node.as_table();
    if (name == "config") {
      checker.check_config(sub);
    } else if (name == "log") {
      checker.check_log(sub);
    } else if (name == "plugins") {
      checker.check_plugins(sub);
    } else if (name == "trace") {
      checker.check_trace(sub);
    } else if (name == "program_cache") {
      checker.check_program_cache(sub);
    } else if (name == "graphs") {
      checker.check_graphs(sub);
    } else {
      checker.check_kind(name, sub);
    }
  }
}

std::optional<std::uint64_t> byte_size_value(const toml::node& node) {
  if (auto count = node.value_exact<std::int64_t>()) {
    if (*count < 0) return std::nullopt;
    return static_cast<std::uint64_t>(*count);
  }
  if (auto text = node.value_exact<std::string>()) return parse_byte_size(*text);
  return std::nullopt;
}

bool drops_lower_layers(const toml::table& layer) {
  return layer["config"]["base"].value_or(std::string()) == "none";
}

std::string_view config_table_name(ComponentKind kind) {
  return kind == ComponentKind::backend ? "backends" : to_string(kind);
}

}  // namespace plexus::detail
