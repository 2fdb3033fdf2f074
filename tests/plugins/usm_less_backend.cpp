// A backend with one device (an accelerator) that implements nothing optional: no USM, no
// memory, no queues. Tests the core's answers for a device without a capability
// (malloc_shared and the others: plexus::error(unsupported) naming the device) and
// Runtime::queue by type for a third kind of device.
#include <memory>

#include "plexus/backend.hpp"
#include "plexus/plugin.hpp"
#include "plexus/plugin_context.hpp"

namespace {

class BareDevice final : public plexus::Device {
 public:
  explicit BareDevice(plexus::Backend& backend) : backend_(backend) {
    info_.name = "bare test accelerator";
    info_.vendor = "plexus tests";
    info_.type = plexus::DeviceType::accelerator;
  }
  const plexus::DeviceInfo& info() const override { return info_; }
  plexus::Backend& backend() const override { return backend_; }

 private:
  plexus::Backend& backend_;
  plexus::DeviceInfo info_;
};

class UsmLessBackend final : public plexus::Backend {
 public:
  explicit UsmLessBackend(plexus::PluginContext&) : device_(*this) {}
  plexus::BackendStatus status() const override { return {true, ""}; }
  std::size_t device_count() const override { return 1; }

 protected:
  plexus::Device& device_at(std::size_t) const override { return device_; }

 private:
  mutable BareDevice device_;
};

}  // namespace

PLEXUS_PLUGIN(backend, usm_less, UsmLessBackend, "0.1.0",
              "test: one accelerator without USM, memory or queues")
