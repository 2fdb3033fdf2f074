// HostDevice: the CPU this process runs on (or a share of its cores), as a Plexus device.
// It JIT-compiles LLVM bitcode (host_module.hpp), allocates 64-byte aligned host memory
// (USM of every kind too: host and shared are the same host memory),
// and runs kernels on a thread pool of its own (host_queue.hpp, kernel_launch.hpp).
//
// Ownership: owned by its HostBackend, which must outlive it; owns its thread pool.
// Thread-safety: every member is safe from any thread (allocation sizes under a mutex).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"
#include "thread_pool.hpp"

namespace plexus::host {

// The host backend's version, reported as the device's version and driver version.
inline constexpr char backend_version[] = "0.1.0";

// Which cores a device uses and how many threads run its kernels.
struct CoreShare {
  std::vector<int> cpus;        // logical CPU numbers (may be empty: not pinned)
  std::size_t threads = 1;      // threads per launch, the calling thread included
  bool named_by_cores = false;  // several devices: "<cpu> (cores a-b)"
};

class HostDevice final : public Device {
 public:
  // Describes the host CPU from /proc/cpuinfo, uname(2), sysconf(3) and the C++ runtime.
  HostDevice(Backend& backend, CoreShare share);
  ~HostDevice() override;

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  bool shares_host_memory() const override { return true; }
  // Native tasks: "host"; memory is the host address (any element pointer type).
  std::string_view native_backend() const override { return "host"; }
  bool native_work_on_caller() const override { return true; }
  NativeHandle native_memory(void* allocation) const override {
    return NativeHandle::any_pointer(allocation);
  }

  void* allocate(std::size_t bytes) override;
  void deallocate(void* allocation) noexcept override;
  // USM: every kind is host memory, allocated as allocate() does.
  bool supports_usm(UsmKind) const override { return true; }
  void* allocate_usm(UsmKind, std::size_t bytes) override { return allocate(bytes); }
  void deallocate_usm(UsmKind, void* pointer) noexcept override { deallocate(pointer); }
  std::shared_ptr<DeviceModule> load_module(BinaryFormat format, std::span<const std::byte> binary,
                                            const std::vector<KernelInfo>& kernels) override;
  std::unique_ptr<DeviceQueue> create_queue() override;

  ThreadPool& pool() const { return *pool_; }
  // The cores this device runs on (empty: not pinned, the process's cores).
  const std::vector<int>& cpus() const { return cpus_; }
  // The size of the sub-groups its kernels see: the CPU's vector width in 32-bit lanes
  // (16 with AVX-512, 8 with AVX, else 4).
  std::size_t sub_group_size() const { return sub_group_size_; }
  // The size of an allocation of this device, or SIZE_MAX for other host memory (a device
  // that shares host memory is given plain host addresses too).
  std::size_t allocation_size(const void* allocation) const;

 private:
  Backend& backend_;
  DeviceInfo info_;
  std::vector<int> cpus_;
  std::unique_ptr<ThreadPool> pool_;
  std::size_t sub_group_size_;
  mutable std::mutex mutex_;
  std::map<const void*, std::size_t> allocations_;  // guarded by mutex_
};

}  // namespace plexus::host
