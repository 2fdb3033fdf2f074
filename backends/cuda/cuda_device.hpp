// CudaDevice: one GPU the CUDA driver reports, using the device's primary context (retained
// on first use, released with the device).
//
// Memory: allocate() returns the CUdeviceptr from cuMemAlloc as a void* (a real device
// address: pointer arithmetic on it is valid). Modules: PTX only (cuModuleLoadDataEx, the
// JIT's error and info logs in plexus::error(build)).
//
// Ownership: owned by its CudaBackend, which must outlive it (and keeps the driver
// loaded). Modules, queues and allocations must be released before the device.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_driver.hpp"
#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"

namespace plexus::cuda {

class CudaLauncher;

class CudaDevice final : public Device {
 public:
  // Queries device `ordinal`; throws plexus::error(device) naming the call that failed.
  // `driver_version` is the driver's CUDA version, e.g. "13.0".
  CudaDevice(Backend& backend, const CudaDriver& driver, int ordinal,
             const std::string& driver_version);
  ~CudaDevice() override;

  void* allocate(std::size_t bytes) override;
  void deallocate(void* allocation) noexcept override;
  // USM (cuda_usm.cpp): device: cuMemAlloc; host: cuMemHostAlloc (portable, device-mapped:
  // with unified addressing kernels use the host address); shared: cuMemAllocManaged, where
  // the device reports CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY.
  bool supports_usm(UsmKind kind) const override;
  void* allocate_usm(UsmKind kind, std::size_t bytes) override;
  void deallocate_usm(UsmKind kind, void* pointer) noexcept override;
  std::shared_ptr<DeviceModule> load_module(BinaryFormat format, std::span<const std::byte> binary,
                                            const std::vector<KernelInfo>& kernels) override;
  std::unique_ptr<DeviceQueue> create_queue() override;
  // Page-locked host memory: cuMemHostAlloc(CU_MEMHOSTALLOC_PORTABLE), so that every CUDA
  // context copies to and from it asynchronously (cuda_device_copies.cpp).
  void* allocate_host(std::size_t bytes) override;
  void deallocate_host(void* memory) noexcept override;
  bool pins_host_memory() const override { return true; }
  // Lets this device's context read `source`'s memory directly (cuCtxEnablePeerAccess) when
  // cuDeviceCanAccessPeer allows it, once per source; false when it does not (the driver's
  // peer copies then go through the host). Thread-safe.
  bool enable_peer_access(const CudaDevice& source) const;

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  CUdevice handle() const { return device_; }
  // Native tasks: "cuda"; memory is the allocation's CUdeviceptr.
  std::string_view native_backend() const override { return "cuda"; }
  NativeHandle native_memory(void* allocation) const override {
    return NativeHandle::of(reinterpret_cast<CUdeviceptr>(allocation));
  }
  const CudaDriver& driver() const { return driver_; }
  // The primary context, retained on first use; throws plexus::error(device) on failure.
  CUcontext context() const;
  // Bytes from `allocation` to the end of the cuMemAlloc block holding it.
  std::size_t bytes_after(const void* allocation) const;
  // The shared-window address where a kernel's dynamic shared memory starts when the
  // kernel has no static shared memory (measured once by a probe kernel).
  std::uint64_t dynamic_shared_base() const;
  // The launch threads of this device's queues (CudaLauncher): a launch handed to one may
  // not be issued yet, so deallocate() and a module's unloading first wait until every
  // launch handed off so far has been issued (the driver then orders them as before).
  void attach_launcher(CudaLauncher& launcher) const;
  void detach_launcher(CudaLauncher& launcher) const;
  void drain_launchers() const;

 private:
  Backend& backend_;
  const CudaDriver& driver_;
  CUdevice device_ = 0;
  DeviceInfo info_;
  mutable std::once_flag context_once_, probe_once_;
  mutable CUcontext context_ = nullptr;
  mutable std::uint64_t dynamic_shared_base_ = 0;
  mutable std::mutex peers_mutex_;
  mutable std::map<const CudaDevice*, bool> peers_;  // enable_peer_access's answers
  mutable std::mutex launchers_mutex_;
  mutable std::vector<CudaLauncher*> launchers_;  // guarded by launchers_mutex_
};

}  // namespace plexus::cuda
