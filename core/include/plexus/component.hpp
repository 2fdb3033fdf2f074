// Component: the root of every plugin-provided object (backends, schedulers, ...).
//
// Ownership: the core owns each component through a handle that also keeps the plugin's
// shared library loaded; components are destroyed before their libraries are unloaded,
// in the reverse order of their creation. A component must not outlive the components it
// was given through its PluginContext (the core guarantees the creation order for that).
#pragma once

#include "plexus/export.hpp"

namespace plexus {

class PLEXUS_API Component {
 public:
  Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;
  virtual ~Component();  // key function: defined in the core
};

}  // namespace plexus
