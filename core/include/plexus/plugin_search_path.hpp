// The plugin search path, in order (earlier entries win when two plugins claim the same
// kind and name):
//   1. the build tree's plugin directory, when libplexus-core runs from the build tree;
//   2. <prefix>/lib/plexus/plugins next to the installed libplexus-core;
//   3. each directory of PLEXUS_PLUGIN_PATH (colon-separated);
//   4. each entry of the config's `[plugins] paths`.
// Directories that do not exist are kept (and shown by `plexus info`) but yield nothing.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plexus/config.hpp"
#include "plexus/export.hpp"

namespace plexus {

struct PluginSearchDir {
  std::filesystem::path path;
  std::string origin;  // "build tree", "install prefix", "PLEXUS_PLUGIN_PATH", "config"
};

PLEXUS_API std::vector<PluginSearchDir> plugin_search_path(const Config& config);

}  // namespace plexus
