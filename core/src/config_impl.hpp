// Config's private state and the helpers config*.cpp share. Internal to the core.
//
// A config is a stack of layers (files or texts, lowest first) and overrides (environment
// variables, API arguments), merged key by key into one table whenever it changes. Layers
// are kept as text and parsed again for each merge: toml++ drops a node's source position
// when it copies one, and merging by moving parsed nodes keeps every value's file, line and
// column.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plexus/config.hpp"

namespace plexus {

class Config::Impl {
 public:
  struct Layer {
    ConfigOrigin origin;  // origin.path names the layer in messages (a file or "<...>")
    std::string text;
  };
  struct Override {
    std::string key;  // dotted, e.g. "scheduler.use", "scheduler.dag.workers"
    toml::table value;  // { "v": <value> } (a table so that any node type fits)
    std::string why;    // "PLEXUS_SCHEDULER=heft", "--set ...", shown in messages
  };

  std::vector<Layer> layers;  // lowest first, every layer found
  std::vector<Override> overrides;
  std::vector<std::string> warnings;

  // Derived by merge():
  toml::table table;                          // the config in force
  std::size_t first_layer = 0;                // layers below it are dropped (base = "none")
  std::map<std::string, std::string> set_by;  // dotted key -> the override that set it

  // Parses every layer, validates each, merges them and applies the overrides.
  // Throws plexus::error(config) naming the layer (or override) and position.
  void merge();
  // Where the value of a dotted key came from: "file:line:col", the override's `why`, or
  // empty when absent. With `element`, the position of that string in an array value.
  std::string origin_of(std::string_view key, std::string_view element = {}) const;
  const toml::node* find(std::string_view key) const;
};

namespace detail {

// Throws plexus::error(config) naming file, line, column, key, expected and found. Nodes
// without a source position (overrides) are named by `source_name`.
void validate_config(const toml::table& table, const std::string& source_name);
// A config file's text. Throws plexus::error(config) when it cannot be read.
std::string read_config_text(const std::filesystem::path& path);
// A size in bytes as a config value: an integer >= 0 or a string parse_byte_size takes
// ("256MiB"); nullopt for anything else.
std::optional<std::uint64_t> byte_size_value(const toml::node& node);
// PLEXUS_<KIND>, PLEXUS_BACKENDS, PLEXUS_LOG_LEVEL, PLEXUS_TRACE and
// PLEXUS_PROGRAM_CACHE_MAX_BYTES.
void apply_environment_overrides(Config& config);
// One warning per PLEXUS_* variable in the environment that Plexus does not read, with the
// closest name it does read ("did you mean PLEXUS_SCHEDULER?").
std::vector<std::string> unknown_environment_variables();
// The table of one kind in the config: "backends" for backends, else the kind's name.
std::string_view config_table_name(ComponentKind kind);
// `[config] base = "none"` in this parsed layer: the layers below it are not used.
bool drops_lower_layers(const toml::table& layer);

}  // namespace detail
}  // namespace plexus
