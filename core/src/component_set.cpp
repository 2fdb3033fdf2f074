#include "plexus/component_set.hpp"

#include <algorithm>

#include "closest_name.hpp"
#include "config_impl.hpp"

#include "plexus/backend.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/compiler.hpp"
#include "plexus/error.hpp"
#include "plexus/fusion_engine.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/not_installed.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/scheduler.hpp"

namespace plexus {

struct ComponentSet::State {
  std::vector<std::shared_ptr<Component>> owned;  // in creation order
  std::vector<Backend*> backends;
  CacheStore* cache = nullptr;
  Compiler* compiler = nullptr;
  FusionEngine* fusion = nullptr;
  MemoryModel* memory = nullptr;
  Scheduler* scheduler = nullptr;
  std::vector<LoadedComponent> loaded;
  std::vector<std::string> warnings;
  std::vector<std::string> skipped;
};

namespace {

// The backends this source tree has (PLEXUS_SHIPPED_BACKENDS, from CMake).
std::vector<std::string> shipped_backends() {
  std::vector<std::string> names;
  std::string_view list = PLEXUS_SHIPPED_BACKENDS;
  while (!list.empty()) {
    const auto comma = list.find(',');
    names.emplace_back(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return names;
}

bool is_selected(const Config& config, ComponentKind kind, const std::string& name) {
  if (kind == ComponentKind::backend) {
    const auto backends = config.selected_backends();
    return std::find(backends.begin(), backends.end(), name) != backends.end();
  }
  return config.selected(kind) == name;
}

// `[<kind>.<name>]` of an installed implementation the config does not select: checked as
// the component would read it, without creating it (PluginLibrary::check_options; a bad
// value is a plexus::error(config) with file:line:col), its unknown keys warned about as a
// selected component's are; a warning when the plugin declares no check.
void check_unselected_options(const Config& config, ComponentKind kind, const std::string& name,
                              const PluginListing& listing, std::vector<std::string>& warnings) {
  const ComponentOptions options = config.options_for(kind, name);
  if (options.keys().empty()) return;
  const std::string not_checked =
      config.origin_of(std::string(detail::config_table_name(kind)) + "." + name) +
      ": the options of " + std::string(to_string(kind)) + " '" + name +
      "' (not selected) are not checked: ";
  std::shared_ptr<PluginLibrary> library;
  try {
    library = PluginLibrary::load(listing);
  } catch (const error& failure) {  // not selected: its plugin failing to load stops nothing
    warnings.push_back(not_checked + failure.what());
    return;
  }
  if (!library->checks_options()) {
    warnings.push_back(not_checked + "its plugin declares no option check");
    return;
  }
  library->check_options(options);
  for (const auto& unused : options.unused_keys()) {
    warnings.push_back(unused + " is not an option of " + std::string(to_string(kind)) + " '" +
                       name + "' (ignored)");
  }
}

// `[<kind>.<name>]` tables of implementations that are not selected: checked when installed
// (above), warnings when not (a typo in the table's name would otherwise leave its options
// unread and unreported).
void check_option_tables(const Config& config, const PluginRegistry& registry,
                         std::vector<std::string>& warnings) {
  for (ComponentKind kind : all_component_kinds) {
    const auto available = registry.names(kind);
    for (const auto& name : config.option_tables(kind)) {
      if (const PluginListing* listing = registry.find(kind, name)) {
        if (!is_selected(config, kind, name))
          check_unselected_options(config, kind, name, *listing, warnings);
        continue;
      }
      const std::string table =
          std::string(detail::config_table_name(kind)) + "." + name;
      std::string warning = config.origin_of(table) + ": [" + table + "] gives options to " +
                            std::string(to_string(kind)) + " '" + name +
                            "', which is not installed";
      if (auto nearest = detail::closest_name(name, available)) {
        warning += " (did you mean [" + std::string(detail::config_table_name(kind)) + "." +
                   *nearest + "]?)";
      }
      warnings.push_back(warning + "; its options are not used");
    }
  }
}

}  // namespace

ComponentSet::ComponentSet(const Config& config, const PluginRegistry& registry)
    : state_(std::make_unique<State>()) {
  auto create = [&]<class Interface>(ComponentKind kind, const std::string& name) -> Interface* {
    const PluginListing* listing = registry.find(kind, name);
    if (!listing) {
      const std::string where =
          kind == ComponentKind::backend
              ? config.origin_of("backends.use", name)
              : config.origin_of(std::string(detail::config_table_name(kind)) + ".use");
      throw error(error_category::config,
                  not_installed_message(registry, kind, name, where,
                                        kind == ComponentKind::backend ? shipped_backends()
                                                                       : std::vector<std::string>{}));
    }
    auto library = PluginLibrary::load(*listing);
    PluginContext context{config.options_for(kind, name), *this};
    std::shared_ptr<Component> component = library->create(context);
    auto* typed = dynamic_cast<Interface*>(component.get());
    if (!typed) {
      throw error(error_category::plugin,
                  "plugin file " + listing->path.string() + " registers " +
                      std::string(to_string(kind)) + " '" + name +
                      "' but its object does not implement that interface");
    }
    for (const auto& unused : context.options.unused_keys()) {
      state_->warnings.push_back(unused + " is not an option of " +
                                 std::string(to_string(kind)) + " '" + name + "' (ignored)");
    }
    state_->owned.push_back(std::move(component));
    state_->loaded.push_back(
        {kind, name, library->version(), library->description(), listing->path});
    return typed;
  };

  check_option_tables(config, registry, state_->warnings);
  try {
    const auto shipped = shipped_backends();
    for (const auto& name : config.selected_backends()) {
      // skip_missing skips a backend Plexus has but this build lacks; any other name that
      // is not installed is a mistake (e.g. "cdua"), reported below with a suggestion.
      if (!registry.find(ComponentKind::backend, name) && config.skip_missing_backends() &&
          std::find(shipped.begin(), shipped.end(), name) != shipped.end()) {
        state_->skipped.push_back("backend '" + name +
                                  "' is not installed (skipped: [backends] skip_missing)");
        continue;
      }
      state_->backends.push_back(create.operator()<Backend>(ComponentKind::backend, name));
    }
    auto selected = [&](ComponentKind kind) { return config.selected(kind); };
    if (auto name = selected(ComponentKind::cache)) {
      state_->cache = create.operator()<CacheStore>(ComponentKind::cache, *name);
    }
    if (auto name = selected(ComponentKind::compiler)) {
      state_->compiler = create.operator()<Compiler>(ComponentKind::compiler, *name);
    }
    if (auto name = selected(ComponentKind::fusion)) {
      state_->fusion = create.operator()<FusionEngine>(ComponentKind::fusion, *name);
    }
    if (auto name = selected(ComponentKind::memory)) {
      state_->memory = create.operator()<MemoryModel>(ComponentKind::memory, *name);
    }
    if (auto name = selected(ComponentKind::scheduler)) {
      state_->scheduler = create.operator()<Scheduler>(ComponentKind::scheduler, *name);
    }
  } catch (...) {
    while (!state_->owned.empty()) state_->owned.pop_back();
    throw;
  }
}

ComponentSet::~ComponentSet() {
  // Reverse creation order: a component goes before those it was given.
  while (!state_->owned.empty()) state_->owned.pop_back();
}

const std::vector<LoadedComponent>& ComponentSet::loaded() const { return state_->loaded; }

std::optional<LoadedComponent> ComponentSet::loaded(ComponentKind kind) const {
  for (const auto& component : state_->loaded) {
    if (component.kind == kind) return component;
  }
  return std::nullopt;
}

const std::vector<std::string>& ComponentSet::warnings() const { return state_->warnings; }

const std::vector<std::string>& ComponentSet::skipped() const { return state_->skipped; }

std::size_t ComponentSet::backend_count() const { return state_->backends.size(); }

Backend& ComponentSet::backend(std::size_t index) const {
  if (index >= state_->backends.size()) {
    throw error(error_category::invalid_argument,
                "backend index " + std::to_string(index) + " out of range (" +
                    std::to_string(state_->backends.size()) + " backends loaded)");
  }
  return *state_->backends[index];
}

CacheStore* ComponentSet::cache() const { return state_->cache; }
Compiler* ComponentSet::compiler() const { return state_->compiler; }
FusionEngine* ComponentSet::fusion() const { return state_->fusion; }
MemoryModel* ComponentSet::memory() const { return state_->memory; }
Scheduler* ComponentSet::scheduler() const { return state_->scheduler; }

}  // namespace plexus
