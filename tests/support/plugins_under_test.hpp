// The plugins a conformance suite checks: every plugin of a kind in this build's plugin
// folder (PLEXUS_BUILD_PLUGIN_DIR, the CTest runs), or, when PLEXUS_CONFORMANCE_PLUGIN names
// a plugin file, that plugin alone: a third-party plugin checked by the installed suite
// (`plexus conformance <kind> --plugin FILE`, sdk/README.md). Not thread-safe on first use
// of a kind (Catch runs test cases on one thread).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "plexus/component_kind.hpp"
#include "plexus/plugin_registry.hpp"
#include "test_support.hpp"

namespace plexus::test {

struct PluginsUnderTest {
  std::unique_ptr<PluginRegistry> registry;  // where the plugins are found
  std::vector<std::string> names;            // the plugins of the kind to check
  bool third_party = false;                  // PLEXUS_CONFORMANCE_PLUGIN: one given plugin
};

inline const PluginsUnderTest& plugins_under_test(ComponentKind kind) {
  static std::map<ComponentKind, PluginsUnderTest> by_kind;
  auto [it, added] = by_kind.try_emplace(kind);
  PluginsUnderTest& under_test = it->second;
  if (!added) return under_test;
  const fs::path file = env_path("PLEXUS_CONFORMANCE_PLUGIN");
  if (file.empty()) {
    under_test.registry = std::make_unique<PluginRegistry>(
        std::vector<PluginSearchDir>{{build_plugin_dir(), "build tree"}});
    under_test.names = under_test.registry->names(kind);
    return under_test;
  }
  // Throws plexus::error(plugin) saying why the file is not a plugin.
  const PluginListing listing = PluginRegistry::inspect(file);
  if (listing.kind != kind) {
    throw std::runtime_error(file.string() + " is a " + std::string(to_string(listing.kind)) +
                             " plugin, not a " + std::string(to_string(kind)) + " plugin");
  }
  under_test.registry = std::make_unique<PluginRegistry>(std::vector<PluginSearchDir>{
      {fs::absolute(file).parent_path(), "the plugin under test"}});
  const PluginListing* found = under_test.registry->find(kind, listing.name);
  if (!found || fs::weakly_canonical(found->path) != fs::weakly_canonical(file)) {
    throw std::runtime_error(file.string() + ": its folder does not offer it as " +
                             std::string(to_string(kind)) + " '" + listing.name +
                             "' (the file name must be libplexus_" +
                             std::string(to_string(kind)) + "_" + listing.name + ".so)");
  }
  under_test.names = {listing.name};
  under_test.third_party = true;
  return under_test;
}

}  // namespace plexus::test
