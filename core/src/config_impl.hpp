// Config's private state and the helpers config*.cpp share. Internal to the core.
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "plexus/config.hpp"

namespace plexus {

class Config::Impl {
 public:
  toml::table table;
  ConfigOrigin origin;
  std::filesystem::path base_dir;  // relative plugin paths resolve against it
  std::vector<std::string> overrides;
};

namespace detail {

// Throws plexus::error(config) naming file, line, column, key, expected and found.
void validate_config(const toml::table& table, const std::string& source_name);
// A size in bytes as a config value: an integer >= 0 or a string parse_byte_size takes
// ("256MiB"); nullopt for anything else.
std::optional<std::uint64_t> byte_size_value(const toml::node& node);
// PLEXUS_<KIND>, PLEXUS_BACKENDS, PLEXUS_LOG_LEVEL, PLEXUS_TRACE and
// PLEXUS_PROGRAM_CACHE_MAX_BYTES.
void apply_environment_overrides(Config& config);
// The table of one kind in the config: "backends" for backends, else the kind's name.
std::string_view config_table_name(ComponentKind kind);

}  // namespace detail
}  // namespace plexus
