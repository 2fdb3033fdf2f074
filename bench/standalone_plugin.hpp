// For benchmarks that measure one component without a Runtime: loads a plugin from the
// build tree (PLEXUS_BUILD_PLUGIN_DIR, else PLEXUS_BENCH_PLUGIN_DIR) and creates its
// component with `options` (TOML lines of its own table) over a ComponentLookup that shows
// only the compiler it is given. Throws plexus::error as the plugin loader does.
// Ownership: the returned component keeps its library loaded; the lookup must outlive it.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include "plexus/component_lookup.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"

namespace bench {

class CompilerOnlyLookup final : public plexus::ComponentLookup {
 public:
  plexus::Compiler* compiler_ = nullptr;  // what compiler() shows (nullptr: none)
  std::size_t backend_count() const override { return 0; }
  plexus::Backend& backend(std::size_t) const override {
    throw plexus::error(plexus::error_category::internal, "no backends here");
  }
  plexus::CacheStore* cache() const override { return nullptr; }
  plexus::Compiler* compiler() const override { return compiler_; }
  plexus::FusionEngine* fusion() const override { return nullptr; }
  plexus::MemoryModel* memory() const override { return nullptr; }
  plexus::Scheduler* scheduler() const override { return nullptr; }
};

template <class T>
std::shared_ptr<T> load_plugin(const std::string& kind, const std::string& name,
                               const plexus::ComponentLookup& lookup,
                               const std::string& options = "") {
  const char* dir = std::getenv("PLEXUS_BUILD_PLUGIN_DIR");
  const std::string plugin_dir = dir && *dir ? dir : PLEXUS_BENCH_PLUGIN_DIR;
  const auto listing =
      plexus::PluginRegistry::inspect(plugin_dir + "/libplexus_" + kind + "_" + name + ".so");
  const auto library = plexus::PluginLibrary::load(listing);
  const std::string table = kind == "backend" ? "backends" : kind;
  const auto config = plexus::Config::from_string(
      "[" + table + "]\nuse = " + (kind == "backend" ? "[\"" + name + "\"]" : "\"" + name + "\"") +
          "\n[" + table + "." + name + "]\n" + options + "\n[scheduler]\nuse = \"inorder\"\n",
      "plexus-bench");
  plexus::PluginContext context{config.options_for(T::kind, name), lookup};
  const std::shared_ptr<plexus::Component> component = library->create(context);
  return std::shared_ptr<T>(component, dynamic_cast<T*>(component.get()));
}

}  // namespace bench
