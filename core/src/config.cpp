#include "plexus/config.hpp"

#include <functional>
#include <sstream>

#include "closest_name.hpp"
#include "component_options_impl.hpp"
#include "config_impl.hpp"
#include "plexus/error.hpp"
#include "toml_location.hpp"

namespace plexus {

namespace detail {
extern const std::string_view builtin_config_text;
}

namespace {

namespace fs = std::filesystem;

constexpr std::string_view builtin_name = "<built-in default>";

toml::table parse_layer(const Config::Impl::Layer& layer) {
  toml::table table;
  try {
    table = toml::parse(layer.text, layer.origin.path);
  } catch (const toml::parse_error& failure) {
    const auto& begin = failure.source().begin;
    throw error(error_category::config, layer.origin.path + ":" + std::to_string(begin.line) +
                                            ":" + std::to_string(begin.column) +
                                            ": malformed TOML: " +
                                            std::string(failure.description()));
  }
  detail::validate_config(table, layer.origin.path);
  return table;
}

// Moves `node` into `into[key]`: moving keeps a toml++ node's source position, copying
// would not.
void put(toml::table& into, const toml::key& key, toml::node&& node) {
  node.visit([&](auto& value) { into.insert_or_assign(key, std::move(value)); });
}

// Key by key: a table merges into the table below, anything else replaces what was there.
void merge_into(toml::table& into, toml::table&& from) {
  for (auto& [key, node] : from) {
    toml::table* below = into[key].as_table();
    if (below && node.is_table()) {
      merge_into(*below, std::move(*node.as_table()));
    } else {
      put(into, key, std::move(node));
    }
  }
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(separator, start);
    std::string item(text.substr(start, end == std::string_view::npos ? text.npos : end - start));
    const auto first = item.find_first_not_of(" \t");
    const auto last = item.find_last_not_of(" \t");
    if (first != std::string::npos) items.push_back(item.substr(first, last - first + 1));
    if (end == std::string_view::npos) return items;
    start = end + 1;
  }
}

bool is_kind_table(std::string_view name) {
  for (ComponentKind kind : all_component_kinds) {
    if (detail::config_table_name(kind) == name) return true;
  }
  return false;
}

// The node an override puts at `key` ("v" of the returned table).
toml::table override_value(std::string& key, std::string_view value) {
  toml::table holder;
  if (key == "backends" || key == "backends.use") {
    key = "backends.use";
    toml::array names;
    for (auto& name : split(value, ',')) names.push_back(name);
    holder.insert("v", std::move(names));
    return holder;
  }
  if (is_kind_table(key)) key += ".use";
  if (key.ends_with(".use") || key == "log.level" || key == "trace.file" ||
      key == "program_cache.max_bytes" || key == "config.base") {
    holder.insert("v", std::string(value));  // text as it is (a size is checked as "256MiB")
    return holder;
  }
  try {
    toml::table parsed = toml::parse("v = " + std::string(value));
    if (parsed.size() == 1 && parsed.contains("v")) return toml::table(parsed);  // a copy: no position
  } catch (const toml::parse_error&) {
  }
  holder.insert("v", std::string(value));
  return holder;
}

const toml::node* find_path(const toml::table& table, std::string_view key) {
  const toml::table* current = &table;
  const toml::node* node = nullptr;
  for (const auto& part : split(key, '.')) {
    if (!current) return nullptr;
    node = current->get(part);
    if (!node) return nullptr;
    current = node->as_table();
  }
  return node;
}

}  // namespace

void Config::Impl::merge() {
  std::vector<toml::table> parsed;
  parsed.reserve(layers.size());
  for (const auto& layer : layers) parsed.push_back(parse_layer(layer));
  first_layer = 0;
  for (std::size_t i = parsed.size(); i-- > 0;) {
    if (detail::drops_lower_layers(parsed[i])) {
      first_layer = i;
      break;
    }
  }
  table = toml::table{};
  for (std::size_t i = first_layer; i < parsed.size(); ++i) merge_into(table, std::move(parsed[i]));
  table.erase("config");  // how the layers combine; not part of the config in force
  set_by.clear();
  for (const auto& change : overrides) {
    const auto parts = split(change.key, '.');
    toml::table* at = &table;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
      if (!at->get(parts[i]) || !(*at)[parts[i]].is_table()) {
        at->insert_or_assign(parts[i], toml::table{});
      }
      at = (*at)[parts[i]].as_table();
    }
    at->insert_or_assign(parts.back(), *change.value.get("v"));
    set_by[change.key] = change.why;
    detail::validate_config(table, change.why);
  }
}

const toml::node* Config::Impl::find(std::string_view key) const { return find_path(table, key); }

std::string Config::Impl::origin_of(std::string_view key, std::string_view element) const {
  const toml::node* node = find(key);
  if (!node) return "";
  if (auto found = set_by.find(std::string(key)); found != set_by.end()) return found->second;
  if (const toml::array* array = node->as_array(); array && !element.empty()) {
    for (const auto& item : *array) {
      if (item.value_exact<std::string>() == element) return detail::node_location("", item);
    }
  }
  return detail::node_location("", *node);
}

std::string_view to_string(ConfigSource source) {
  switch (source) {
    case ConfigSource::argument: return "given explicitly";
    case ConfigSource::environment: return "PLEXUS_CONFIG";
    case ConfigSource::working_directory: return "./plexus.toml";
    case ConfigSource::user_config_dir: return "user config directory";
    case ConfigSource::system_config_dir: return "system config directory";
    case ConfigSource::builtin: return "built-in default";
  }
  return "unknown";
}

Config::Config(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::string_view Config::builtin_text() { return detail::builtin_config_text; }

Config Config::from_file(const std::filesystem::path& path, ConfigSource source) {
  auto impl = std::make_shared<Impl>();
  impl->layers.push_back({{source, path.string()}, detail::read_config_text(path)});
  impl->merge();
  return Config(std::move(impl));
}

Config Config::from_string(std::string_view toml_text, std::string source_name) {
  auto impl = std::make_shared<Impl>();
  const ConfigSource source =
      source_name == builtin_name ? ConfigSource::builtin : ConfigSource::argument;
  impl->layers.push_back({{source, std::move(source_name)}, std::string(toml_text)});
  impl->merge();
  return Config(std::move(impl));
}

void Config::set(std::string_view key, std::string_view value, std::string_view why) {
  std::string canonical(key);
  const std::string top = split(canonical, '.').empty() ? "" : split(canonical, '.').front();
  static const std::vector<std::string> settable = {
      "backends", "scheduler", "memory", "cache",    "compiler",      "fusion",
      "log",      "trace",     "plugins", "config", "program_cache", "graphs"};
  if (std::find(settable.begin(), settable.end(), top) == settable.end()) {
    throw error(error_category::config,
                std::string(why) + ": unknown setting '" + std::string(key) + "'" +
                    detail::did_you_mean(top, settable) +
                    " (expected a kind: backends, scheduler, memory, cache, compiler, fusion; "
                    "a component option such as scheduler.dag.workers; or log.level, "
                    "trace.file, program_cache.max_bytes, graphs.auto)");
  }
  // Copy on write: other copies of this config keep their view.
  auto updated = std::make_shared<Impl>();
  updated->layers = impl_->layers;
  updated->overrides = impl_->overrides;
  updated->warnings = impl_->warnings;
  toml::table holder = override_value(canonical, value);
  updated->overrides.push_back({canonical, std::move(holder), std::string(why)});
  updated->merge();
  impl_ = std::move(updated);
}

const ConfigOrigin& Config::origin() const { return impl_->layers.back().origin; }

std::vector<ConfigOrigin> Config::layers() const {
  std::vector<ConfigOrigin> result;
  for (std::size_t i = impl_->first_layer; i < impl_->layers.size(); ++i) {
    result.push_back(impl_->layers[i].origin);
  }
  return result;
}

std::vector<std::string> Config::overrides() const {
  std::vector<std::string> result;
  for (const auto& change : impl_->overrides) result.push_back(change.why);
  return result;
}

std::vector<std::string> Config::warnings() const { return impl_->warnings; }

std::string Config::origin_of(std::string_view key, std::string_view element) const {
  std::string where = impl_->origin_of(key, element);
  return where.empty() ? origin().path : where;
}

namespace {

// A value as TOML shows it, strings in double quotes (toml++ prints arrays of 'literals').
std::string value_text(const toml::node& node) {
  if (auto text = node.value_exact<std::string>()) return "\"" + *text + "\"";
  if (const toml::array* array = node.as_array()) {
    std::string text;
    for (const auto& element : *array) text += (text.empty() ? "" : ", ") + value_text(element);
    return "[" + text + "]";
  }
  std::ostringstream out;
  node.visit([&out](const auto& value) { out << value; });
  return out.str();
}

}  // namespace

std::vector<ConfigValue> Config::values() const {
  std::vector<ConfigValue> result;
  std::function<void(const toml::table&, const std::string&)> walk =
      [&](const toml::table& table, const std::string& prefix) {
        for (const auto& [key, node] : table) {
          const std::string path = prefix + std::string(key.str());
          if (const toml::table* sub = node.as_table()) {
            walk(*sub, path + ".");
          } else {
            result.push_back({path, value_text(node), impl_->origin_of(path)});
          }
        }
      };
  walk(impl_->table, "");
  return result;
}

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

std::vector<std::string> Config::option_tables(ComponentKind kind) const {
  std::vector<std::string> names;
  if (const toml::table* table = impl_->table[detail::config_table_name(kind)].as_table()) {
    for (const auto& [key, node] : *table) {
      if (node.is_table()) names.emplace_back(key.str());
    }
  }
  return names;
}

ComponentOptions Config::options_for(ComponentKind kind, std::string_view name) const {
  std::string table_name(detail::config_table_name(kind));
  static const toml::table empty;
  const toml::table* table = impl_->table[table_name][name].as_table();
  return ComponentOptions(std::make_shared<ComponentOptions::Impl>(
      impl_, table ? *table : empty, table_name + "." + std::string(name)));
}

namespace {

// A path from the config: a relative one is relative to the file that says it; an
// override's (PLEXUS_*, the API, --set), to the working directory.
fs::path resolved_path(fs::path path, const toml::node& node) {
  if (path.is_relative()) {
    const auto& file = node.source().path;
    const bool from_file = file && !file->empty() && file->front() != '<';
    path = (from_file ? fs::absolute(*file).parent_path() : fs::current_path()) / path;
  }
  return path;
}

}  // namespace

std::vector<std::filesystem::path> Config::plugin_paths() const {
  std::vector<fs::path> paths;
  if (const toml::array* array = impl_->table["plugins"]["paths"].as_array()) {
    for (const auto& element : *array)
      paths.push_back(resolved_path(*element.value<std::string>(), element));
  }
  return paths;
}

std::string Config::trace_file() const {
  // The same rule as [plugins] paths (docs/tracing.md).
  const toml::node* node = impl_->table["trace"]["file"].node();
  const std::string file = node ? node->value_or(std::string()) : std::string();
  return file.empty() ? file : resolved_path(file, *node).string();
}

std::uint64_t Config::program_cache_max_bytes() const {
  const toml::node* node = impl_->table["program_cache"]["max_bytes"].node();
  return node ? detail::byte_size_value(*node).value_or(0) : 0;  // validated when loaded
}

AutoGraphOptions Config::auto_graph() const {
  AutoGraphOptions options;
  const auto& graphs = impl_->table["graphs"];  // validated when loaded
  options.enabled = graphs["auto"].value_or(true);  // on by default (issue 16 item 3)
  options.repeats = static_cast<std::size_t>(graphs["auto_repeats"].value_or(std::int64_t(3)));
  options.max_period =
      static_cast<std::size_t>(graphs["auto_max_period"].value_or(std::int64_t(64)));
  options.batch = static_cast<std::size_t>(graphs["auto_batch"].value_or(std::int64_t(32)));
  return options;
}

std::string Config::log_level() const {
  return impl_->table["log"]["level"].value_or(std::string("warn"));
}

std::string Config::to_toml() const {
  std::ostringstream out;
  out << impl_->table;
  return out.str();
}

}  // namespace plexus
