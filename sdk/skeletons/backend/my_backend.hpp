// MyBackend: skeleton of a Plexus backend. Interface: plexus/backend.hpp.
//
// Fill in:
//   - MyBackend::MyBackend: load your driver, discover the devices, fill one DeviceInfo
//     each. A missing driver or device is NOT an error: leave status_.available false
//     with the reason (shown by `plexus info`) and no devices.
//   - MyDevice: whatever per-device handles your driver needs.
//
// Thread-safety (the contract): status(), device_count() and device() are called from any
// thread; they only read what the constructor discovered, so they need no lock.
// Ownership: the backend owns its devices; they live as long as the backend.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"
#include "plexus/plugin_context.hpp"

namespace my_backend {

class MyDevice final : public plexus::Device {
 public:
  MyDevice(plexus::Backend& backend, plexus::DeviceInfo info)
      : backend_(backend), info_(std::move(info)) {}

  const plexus::DeviceInfo& info() const override { return info_; }
  plexus::Backend& backend() const override { return backend_; }

  // Native tasks (plexus/interop.hpp, sdk/README.md "Native tasks"): the name applications
  // key their implementations by, and the native handle of an allocation, typed as your
  // driver's memory type. Empty (as here): the device runs no native tasks.
  // TODO: return "my_backend" once your queue implements DeviceQueue::native_handles()
  // (your context, queue and device as NativeHandle::of(handle)), and return
  // plexus::NativeHandle::of(static_cast<my_mem_t>(allocation)) from native_memory().
  std::string_view native_backend() const override { return {}; }

  // USM (plexus/usm.hpp; sdk/README.md "USM in a backend"), optional per kind: the
  // defaults support none (malloc_* then fails with plexus::error(unsupported) naming this
  // device). TODO where your driver has unified memory: return true for the kinds you
  // allocate, allocate_usm returning real addresses, deallocate_usm freeing them; and
  // DeviceQueue::usm_copy (usm_fill optional) in your queue.
  bool supports_usm(plexus::UsmKind) const override { return false; }
  plexus::NativeHandle native_memory(void* allocation) const override {
    return plexus::NativeHandle::of(allocation);  // TODO: your memory handle type
  }

 private:
  plexus::Backend& backend_;
  plexus::DeviceInfo info_;
  // TODO: your driver's device handle, context, queues...
};

class MyBackend final : public plexus::Backend {
 public:
  explicit MyBackend(plexus::PluginContext& context);

  plexus::BackendStatus status() const override;
  std::size_t device_count() const override;

 protected:
  plexus::Device& device_at(std::size_t index) const override;

 private:
  plexus::BackendStatus status_;
  std::vector<std::unique_ptr<MyDevice>> devices_;
};

}  // namespace my_backend
