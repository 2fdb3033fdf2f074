// ComponentLookup: how a component reaches the other components of its runtime, through
// their core interfaces only (never another plugin's internals).
//
// Components are created in this order: backends, cache, compiler, fusion, memory,
// scheduler. During its creation a component sees those created before it; a kind that is
// not configured (or not yet created) is nullptr. Pointers stay valid for the component's
// whole life. Thread-safety: read-only, safe from any thread.
#pragma once

#include <cstddef>
#include <vector>

#include "plexus/export.hpp"

namespace plexus {

class Backend;
class CacheStore;
class Compiler;
class Device;
class FusionEngine;
class MemoryModel;
class Scheduler;

class PLEXUS_API ComponentLookup {
 public:
  virtual ~ComponentLookup();

  virtual std::size_t backend_count() const = 0;
  virtual Backend& backend(std::size_t index) const = 0;
  virtual CacheStore* cache() const = 0;
  virtual Compiler* compiler() const = 0;
  virtual FusionEngine* fusion() const = 0;
  virtual MemoryModel* memory() const = 0;
  virtual Scheduler* scheduler() const = 0;
};

// The devices of every available backend, in backend (config) order, then device order.
PLEXUS_API std::vector<Device*> available_devices(const ComponentLookup& components);

}  // namespace plexus
