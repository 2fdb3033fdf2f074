// PluginContext: what the core hands a plugin's factory. Valid only during the factory
// call; copy what you need (ComponentOptions is a cheap shared handle; the lookup's
// pointers stay valid for the component's life).
#pragma once

#include "plexus/component_lookup.hpp"
#include "plexus/component_options.hpp"

namespace plexus {

struct PluginContext {
  ComponentOptions options;   // this component's `[<kind>.<name>]` table
  const ComponentLookup& components;
};

}  // namespace plexus
