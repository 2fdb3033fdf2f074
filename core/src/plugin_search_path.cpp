#include "plexus/plugin_search_path.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace plexus {

namespace {

namespace fs = std::filesystem;

// Where libplexus-core itself was loaded from.
fs::path core_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_search_path), &info) == 0 || !info.dli_fname) {
    return {};
  }
  std::error_code ignored;
  return fs::weakly_canonical(fs::path(info.dli_fname), ignored).parent_path();
}

bool same_dir(const fs::path& a, const fs::path& b) {
  std::error_code ignored;
  return fs::weakly_canonical(a, ignored) == fs::weakly_canonical(b, ignored);
}

}  // namespace

std::vector<PluginSearchDir> plugin_search_path(const Config& config) {
  std::vector<PluginSearchDir> dirs;
  auto add = [&dirs](fs::path path, std::string origin) {
    if (path.empty()) return;
    for (const auto& existing : dirs) {
      if (same_dir(existing.path, path)) return;
    }
    dirs.push_back({std::move(path), std::move(origin)});
  };

  fs::path core_dir = core_library_dir();
  if (!core_dir.empty() && same_dir(core_dir, PLEXUS_BUILD_TREE_LIB_DIR)) {
    add(PLEXUS_BUILD_TREE_PLUGIN_DIR, "build tree");
  } else if (!core_dir.empty()) {
    add(core_dir / PLEXUS_INSTALL_PLUGIN_SUBDIR, "install prefix");
  }
  if (const char* env = std::getenv("PLEXUS_PLUGIN_PATH")) {
    std::string list(env);
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t end = list.find(':', start);
      if (end == std::string::npos) end = list.size();
      add(list.substr(start, end - start), "PLEXUS_PLUGIN_PATH");
      start = end + 1;
    }
  }
  for (const auto& path : config.plugin_paths()) add(path, "config");
  return dirs;
}

}  // namespace plexus
