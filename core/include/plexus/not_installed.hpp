// not_installed_message: the error text for a component that a config selects and no plugin
// on the search path provides, shared by the core and the `plexus` tool:
//   "WHERE: scheduler 'hetf' is not installed (did you mean 'heft'?); available: dag, heft,
//    inorder. Searched: DIR (ORIGIN), DIR (ORIGIN)."
// WHERE is where the name was selected (Config::origin_of). `also_known`: more names to
// suggest from (e.g. backends Plexus has that this build lacks). Thread-safe (pure).
#pragma once

#include <string>
#include <vector>

#include "plexus/component_kind.hpp"
#include "plexus/export.hpp"
#include "plexus/plugin_registry.hpp"

namespace plexus {

PLEXUS_API std::string not_installed_message(const PluginRegistry& registry, ComponentKind kind,
                                             const std::string& name, const std::string& where,
                                             std::vector<std::string> also_known = {});

}  // namespace plexus
