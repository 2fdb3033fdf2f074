#include "plexus/config.hpp"

#include <fstream>
#include <sstream>

#include "component_options_impl.hpp"
#include "config_impl.hpp"
#include "plexus/error.hpp"

namespace plexus {

namespace detail {
extern const std::string_view builtin_config_text;
}

namespace {

namespace fs = std::filesystem;

std::shared_ptr<Config::Impl> parse(std::string_view text, const std::string& source_name) {
  auto impl = std::make_shared<Config::Impl>();
  try {
    impl->table = toml::parse(text, source_name);
  } catch (const toml::parse_error& failure) {
    const auto& begin = failure.source().begin;
    throw error(error_category::config, source_name + ":" + std::to_string(begin.line) + ":" +
                                            std::to_string(begin.column) +
                                            ": malformed TOML: " +
                                            std::string(failure.description()));
  }
  detail::validate_config(impl->table, source_name);
  return impl;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> items;
  std::string current;
  auto flush = [&] {
    auto first = current.find_first_not_of(" \t");
    auto last = current.find_last_not_of(" \t");
    if (first != std::string::npos) items.push_back(current.substr(first, last - first + 1));
    current.clear();
  };
  for (char c : text) {
    if (c == ',') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return items;
}

}  // namespace

std::string_view to_string(ConfigSource source) {
  switch (source) {
    case ConfigSource::argument: return "given explicitly";
    case ConfigSource::environment: return "PLEXUS_CONFIG";
    case ConfigSource::working_directory: return "./plexus.toml";
    case ConfigSource::user_config_dir: return "user config directory";
    case ConfigSource::builtin: return "built-in default";
  }
  return "unknown";
}

Config::Config(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::string_view Config::builtin_text() { return detail::builtin_config_text; }

Config Config::from_file(const std::filesystem::path& path, ConfigSource source) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw error(error_category::config,
                "cannot read config file '" + path.string() + "': " +
                    (fs::exists(path) ? "permission denied or not a file" : "no such file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto impl = parse(text.str(), path.string());
  impl->origin = {source, path.string()};
  impl->base_dir = fs::absolute(path).parent_path();
  return Config(std::move(impl));
}

Config Config::from_string(std::string_view toml_text, std::string source_name) {
  auto impl = parse(toml_text, source_name);
  impl->origin = {source_name == "<built-in default>" ? ConfigSource::builtin
                                                      : ConfigSource::argument,
                  source_name};
  impl->base_dir = fs::current_path();
  return Config(std::move(impl));
}

void Config::set(std::string_view key, std::string_view value, std::string_view why) {
  // Copy on write: other copies of this config keep their view.
  auto updated = std::make_shared<Impl>(*impl_);
  if (key == "log.level") {
    if (!updated->table.contains("log")) updated->table.insert("log", toml::table{});
    updated->table["log"].as_table()->insert_or_assign("level", std::string(value));
  } else if (key == "trace.file" || key == "program_cache.max_bytes") {
    // A string either way: a size override is checked like "256MiB" in the file.
    const auto dot = key.find('.');
    const std::string table(key.substr(0, dot));
    if (!updated->table.contains(table)) updated->table.insert(table, toml::table{});
    updated->table[table].as_table()->insert_or_assign(key.substr(dot + 1), std::string(value));
  } else {
    std::optional<ComponentKind> kind;
    for (ComponentKind candidate : all_component_kinds) {
      if (detail::config_table_name(candidate) == key) kind = candidate;
    }
    if (!kind) {
      throw error(error_category::config,
                  std::string(why) + ": unknown setting '" + std::string(key) +
                      "' (expected one of: backends, scheduler, memory, cache, compiler, "
                      "fusion, log.level, trace.file, program_cache.max_bytes)");
    }
    if (!updated->table.contains(key)) updated->table.insert(key, toml::table{});
    toml::table& table = *updated->table[key].as_table();
    if (kind == ComponentKind::backend) {
      toml::array names;
      for (auto& name : split_list(value)) names.push_back(name);
      table.insert_or_assign("use", std::move(names));
    } else {
      table.insert_or_assign("use", std::string(value));
    }
  }
  detail::validate_config(updated->table, std::string(why));
  updated->overrides.emplace_back(why);
  impl_ = std::move(updated);
}

const ConfigOrigin& Config::origin() const { return impl_->origin; }

std::vector<std::string> Config::overrides() const { return impl_->overrides; }

std::optional<std::string> Config::selected(ComponentKind kind) const {
  if (kind == ComponentKind::backend) return std::nullopt;
  if (auto name = impl_->table[detail::config_table_name(kind)]["use"].value<std::string>()) {
    return *name;
  }
  return std::nullopt;
}

std::vector<std::string> Config::selected_backends() const {
  std::vector<std::string> names;
  auto use = impl_->table["backends"]["use"];
  if (auto single = use.value<std::string>()) {
    names.push_back(*single);
  } else if (const toml::array* array = use.as_array()) {
    for (const auto& element : *array) names.push_back(*element.value<std::string>());
  }
  return names;
}

bool Config::skip_missing_backends() const {
  return impl_->table["backends"]["skip_missing"].value_or(false);
}

ComponentOptions Config::options_for(ComponentKind kind, std::string_view name) const {
  std::string table_name(detail::config_table_name(kind));
  static const toml::table empty;
  const toml::table* table = impl_->table[table_name][name].as_table();
  return ComponentOptions(std::make_shared<ComponentOptions::Impl>(
      impl_, table ? *table : empty, impl_->origin.path, table_name + "." + std::string(name)));
}

std::vector<std::filesystem::path> Config::plugin_paths() const {
  std::vector<fs::path> paths;
  if (const toml::array* array = impl_->table["plugins"]["paths"].as_array()) {
    for (const auto& element : *array) {
      fs::path path(*element.value<std::string>());
      paths.push_back(path.is_absolute() ? path : impl_->base_dir / path);
    }
  }
  return paths;
}

std::string Config::trace_file() const {
  return impl_->table["trace"]["file"].value_or(std::string());
}

std::uint64_t Config::program_cache_max_bytes() const {
  const toml::node* node = impl_->table["program_cache"]["max_bytes"].node();
  return node ? detail::byte_size_value(*node).value_or(0) : 0;  // validated when loaded
}

std::string Config::log_level() const {
  return impl_->table["log"]["level"].value_or(std::string("info"));
}

std::string Config::to_toml() const {
  std::ostringstream out;
  out << impl_->table;
  return out.str();
}

}  // namespace plexus
