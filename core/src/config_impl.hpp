// Config's private state and the helpers config*.cpp share. Internal to the core.
#pragma once

#include <toml++/toml.h>

#include <filesystem>
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
// PLEXUS_<KIND>, PLEXUS_BACKENDS and PLEXUS_LOG_LEVEL.
void apply_environment_overrides(Config& config);
// The table of one kind in the config: "backends" for backends, else the kind's name.
std::string_view config_table_name(ComponentKind kind);

}  // namespace detail
}  // namespace plexus
