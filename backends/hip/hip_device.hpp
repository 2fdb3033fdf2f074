// HipDevice: one AMD GPU the HIP runtime reports (ordinal `n` of hipGetDeviceCount); every
// call runs with the device current (ScopedDevice).
//
// Memory: allocate() is hipMalloc (a real device address). USM: device hipMalloc, host
// hipHostMalloc (mapped, portable: kernels use the host address), shared hipMallocManaged
// where the device reports managedMemory. allocate_host: hipHostMalloc (portable,
// page-locked). Modules: AMDGCN code objects (hipModuleLoadData), compiled for the device's
// architecture (gcnArchName without its feature flags, e.g. "gfx90a").
//
// Ownership: owned by its HipBackend, which must outlive it (and keeps the runtime loaded).
// Modules, queues and allocations must be released before the device.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hip_runtime.hpp"
#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"

namespace plexus::hip {

class HipDevice final : public Device {
 public:
  // Queries device `ordinal`; throws plexus::error(device) naming the call that failed.
  HipDevice(Backend& backend, const HipRuntime& runtime, int ordinal);

  void* allocate(std::size_t bytes) override;
  void deallocate(void* allocation) noexcept override;
  bool supports_usm(UsmKind kind) const override;
  void* allocate_usm(UsmKind kind, std::size_t bytes) override;
  void deallocate_usm(UsmKind kind, void* pointer) noexcept override;
  std::shared_ptr<DeviceModule> load_module(BinaryFormat format, std::span<const std::byte> binary,
                                            const std::vector<KernelInfo>& kernels) override;
  std::unique_ptr<DeviceQueue> create_queue() override;
  void* allocate_host(std::size_t bytes) override;
  void deallocate_host(void* memory) noexcept override;
  bool pins_host_memory() const override { return true; }

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  // Native tasks: "hip"; memory is the allocation's device address (void*).
  std::string_view native_backend() const override { return "hip"; }

  const HipRuntime& runtime() const { return runtime_; }
  int ordinal() const { return ordinal_; }
  // Bytes from `allocation` to the end of the hipMalloc block holding it; invalid_argument
  // when it is not device memory.
  std::size_t bytes_after(const void* allocation) const;
  // Lets this device read `source`'s memory directly (hipDeviceEnablePeerAccess) where
  // hipDeviceCanAccessPeer allows it, once per source; false when it does not.
  bool enable_peer_access(const HipDevice& source) const;
  // Throws plexus::error(device) naming the device, `what` and the failed `call`.
  [[noreturn]] void fail(const std::string& what, const char* call, hipError_t result) const;

 private:
  Backend& backend_;
  const HipRuntime& runtime_;
  int ordinal_;
  DeviceInfo info_;
  bool managed_ = false;
  mutable std::mutex peers_mutex_;
  mutable std::map<const HipDevice*, bool> peers_;
};

}  // namespace plexus::hip
