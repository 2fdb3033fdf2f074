// Key functions of the component interfaces: one out-of-line destructor each, so their
// vtables and typeinfo live in libplexus-core only.
#include "plexus/backend.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/compiler.hpp"
#include "plexus/component.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/no_components.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/fusion_engine.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/scheduler.hpp"

namespace plexus {

Component::~Component() = default;
ComponentLookup::~ComponentLookup() = default;

namespace {

class NoComponents final : public ComponentLookup {
 public:
  std::size_t backend_count() const override { return 0; }
  Backend& backend(std::size_t) const override {
    throw error(error_category::internal, "this component was created alone: it sees no backend");
  }
  CacheStore* cache() const override { return nullptr; }
  Compiler* compiler() const override { return nullptr; }
  FusionEngine* fusion() const override { return nullptr; }
  MemoryModel* memory() const override { return nullptr; }
  Scheduler* scheduler() const override { return nullptr; }
};

}  // namespace

const ComponentLookup& no_components() {
  static const NoComponents none;
  return none;
}
Backend::~Backend() = default;
Scheduler::~Scheduler() = default;
MemoryModel::~MemoryModel() = default;
CacheStore::~CacheStore() = default;
Compiler::~Compiler() = default;
FusionEngine::~FusionEngine() = default;

std::vector<Device*> available_devices(const ComponentLookup& components) {
  std::vector<Device*> devices;
  for (std::size_t b = 0; b < components.backend_count(); ++b) {
    Backend& backend = components.backend(b);
    if (!backend.status().available) continue;
    for (std::size_t d = 0; d < backend.device_count(); ++d) devices.push_back(&backend.device(d));
  }
  return devices;
}

Device& Backend::device(std::size_t index) const {
  const std::size_t count = device_count();
  if (index >= count) {
    throw error(error_category::invalid_argument,
                "device index " + std::to_string(index) + " is out of range (the backend has " +
                    std::to_string(count) + (count == 1 ? " device)" : " devices)"));
  }
  return device_at(index);
}

}  // namespace plexus
