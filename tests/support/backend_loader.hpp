// Loads backend plugins for tests through the core's plugin loader, from the build's plugin
// directory (PLEXUS_BUILD_PLUGIN_DIR, else PLEXUS_TEST_DEFAULT_PLUGIN_DIR compiled in).
// Not thread-safe; the returned backend keeps its library loaded.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "plexus/no_components.hpp"
#include "plexus/backend.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"

namespace plexus::test {

inline std::filesystem::path backend_plugin_dir() {
  const char* dir = std::getenv("PLEXUS_BUILD_PLUGIN_DIR");
  return dir && *dir ? std::filesystem::path(dir)
                     : std::filesystem::path(PLEXUS_TEST_DEFAULT_PLUGIN_DIR);
}

inline std::filesystem::path plugin_file(const std::string& kind, const std::string& name) {
  return backend_plugin_dir() / ("libplexus_" + kind + "_" + name + ".so");
}

// Names of the backend plugins built, from their file names, sorted.
inline std::vector<std::string> built_backends() {
  std::vector<std::string> names;
  const std::string prefix = "libplexus_backend_", suffix = ".so";
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(backend_plugin_dir(), ec)) {
    const std::string file = entry.path().filename().string();
    if (file.size() > prefix.size() + suffix.size() && file.starts_with(prefix) &&
        file.ends_with(suffix))
      names.push_back(file.substr(prefix.size(), file.size() - prefix.size() - suffix.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}


// Backend plugin `name` with `options` (TOML lines of its [backends.<name>] table).
inline std::shared_ptr<Backend> load_backend(const std::string& name,
                                             const std::string& options = "") {
  const PluginListing listing = PluginRegistry::inspect(plugin_file("backend", name));
  REQUIRE(listing.kind == ComponentKind::backend);
  REQUIRE(listing.name == name);
  const auto library = PluginLibrary::load(listing);
  const auto config = Config::from_string("[backends]\nuse = [\"" + name + "\"]\n[backends." +
                                              name + "]\n" + options +
                                              "\n[scheduler]\nuse = \"inorder\"\n",
                                          "backend_test.toml");
    PluginContext context{config.options_for(ComponentKind::backend, name), no_components()};
  const std::shared_ptr<Component> component = library->create(context);
  REQUIRE(component);
  auto* backend = dynamic_cast<Backend*>(component.get());
  REQUIRE(backend != nullptr);
  return std::shared_ptr<Backend>(component, backend);
}

}  // namespace plexus::test
