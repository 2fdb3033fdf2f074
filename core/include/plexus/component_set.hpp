// ComponentSet: the components a config selects, loaded from the registry's plugins and
// wired together (each sees the earlier ones through ComponentLookup).
//
// Creation order: backends, cache, compiler, fusion, memory, scheduler; destruction in
// reverse, each component before its library. A selected component that is not installed
// throws plexus::error(config) naming where it was selected (file:line:col or the
// variable), the nearest installed name and what is available of that kind; one that fails
// to load throws plexus::error(plugin). A backend Plexus has but this build lacks is skipped
// under `[backends] skip_missing`. Options no component read, and option tables of
// implementations that are not installed, are warnings (warnings(); the caller reports them).
// Thread-safety: the lookups are safe from any thread after construction.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plexus/component_kind.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/config.hpp"
#include "plexus/export.hpp"
#include "plexus/plugin_registry.hpp"

namespace plexus {

struct LoadedComponent {
  ComponentKind kind = ComponentKind::backend;
  std::string name;
  std::string version;
  std::string description;
  std::filesystem::path path;
};

class PLEXUS_API ComponentSet : public ComponentLookup {
 public:
  ComponentSet(const Config& config, const PluginRegistry& registry);
  ~ComponentSet() override;

  const std::vector<LoadedComponent>& loaded() const;
  std::optional<LoadedComponent> loaded(ComponentKind kind) const;  // first of that kind
  // Problems the user should fix that did not stop creation, each "where: what".
  const std::vector<std::string>& warnings() const;
  // Backends skipped by `[backends] skip_missing`, each with the reason.
  const std::vector<std::string>& skipped() const;

  std::size_t backend_count() const override;
  Backend& backend(std::size_t index) const override;
  CacheStore* cache() const override;
  Compiler* compiler() const override;
  FusionEngine* fusion() const override;
  MemoryModel* memory() const override;
  Scheduler* scheduler() const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace plexus
