// Printing what the registry found, shared by `plexus plugins` and `plexus info`.
#pragma once

#include <ostream>

#include "plexus/plugin_registry.hpp"

namespace plexus::tool {

void print_search_path(std::ostream& out, const PluginRegistry& registry);
void print_problems_and_warnings(std::ostream& out, const PluginRegistry& registry);

}  // namespace plexus::tool
