// The `--config FILE` option every subcommand shares: the layered config (Config::load), with
// the given file as the project file. Throws plexus::error(config).
#pragma once

#include "command_line.hpp"
#include "plexus/config.hpp"

namespace plexus::tool {

inline Config config_from(const CommandLine& line) {
  if (auto path = line.value("config")) return Config::load(std::filesystem::path(*path));
  return Config::load();
}

}  // namespace plexus::tool
