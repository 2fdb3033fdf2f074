// Key functions of the component interfaces: one out-of-line destructor each, so their
// vtables and typeinfo live in libplexus-core only.
#include "plexus/backend.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/compiler.hpp"
#include "plexus/component.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/device.hpp"
#include "plexus/fusion_engine.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/scheduler.hpp"

namespace plexus {

Component::~Component() = default;
ComponentLookup::~ComponentLookup() = default;
Device::~Device() = default;
Backend::~Backend() = default;
Scheduler::~Scheduler() = default;
MemoryModel::~MemoryModel() = default;
CacheStore::~CacheStore() = default;
Compiler::~Compiler() = default;
FusionEngine::~FusionEngine() = default;

}  // namespace plexus
