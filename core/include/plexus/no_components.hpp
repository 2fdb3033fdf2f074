// no_components(): a ComponentLookup with nothing in it, for a component created alone (a
// tool opening one cache store, a worker opening its backends, a test loading one plugin):
// every kind is nullptr and backend() throws plexus::error(internal).
// Thread-safety: immutable; the object lives as long as the process.
#pragma once

#include "plexus/component_lookup.hpp"
#include "plexus/export.hpp"

namespace plexus {

PLEXUS_API const ComponentLookup& no_components();

}  // namespace plexus
