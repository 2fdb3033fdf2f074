// ZeDevice: one device a Level Zero driver reports, in its driver's context (ZeDriver).
//
// Memory: allocate() is zeMemAllocDevice; the void* is the device address (pointer
// arithmetic on it is valid). USM: device zeMemAllocDevice, host zeMemAllocHost, shared
// zeMemAllocShared, where zeDeviceGetMemoryAccessProperties reports the capability.
// allocate_host: zeMemAllocHost (page-locked, copied fastest). Memory is freed with
// zeMemFreeExt's blocking policy where the driver has it (it waits for the device to be
// done with it, as cuMemFree does), else zeMemFree. Modules: SPIR-V only (zeModuleCreate;
// the build log in plexus::error(build)).
//
// Ownership: owned by its ZeBackend, which must outlive it (and keeps the loader loaded and
// the context alive). Modules, queues, allocations and events must be released before it.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"
#include "ze_driver.hpp"
#include "ze_events.hpp"
#include "ze_loader.hpp"

namespace plexus::level_zero {

// How the device's timestamps count (for ZeTiming).
struct ZeClock {
  double ns_per_tick = 1.0;             // from timerResolution
  std::uint32_t kernel_valid_bits = 64;  // kernelTimestampValidBits
  std::uint32_t global_valid_bits = 64;  // timestampValidBits
};

class ZeDevice final : public Device {
 public:
  // Queries the device's properties; throws plexus::error(device) naming the call that
  // failed, or when it has no compute command queue group.
  ZeDevice(Backend& backend, const ZeDriver& driver, ze_device_handle_t device);
  ~ZeDevice() override;

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
  // Native tasks: "level_zero"; memory is the allocation's device address (void*).
  std::string_view native_backend() const override { return "level_zero"; }

  const ZeLoader& loader() const { return driver_.loader(); }
  const ZeDriver& driver() const { return driver_; }
  ze_device_handle_t handle() const { return device_; }
  ze_context_handle_t context() const { return driver_.context(); }
  std::uint32_t compute_ordinal() const { return compute_ordinal_; }
  std::size_t max_fill_pattern_bytes() const { return max_fill_pattern_; }
  const ZeClock& clock() const { return clock_; }
  // Events of this device: plain, or recording kernel timestamps (for timing).
  ZeEventPool& events(bool timestamps) const { return timestamps ? *timestamp_events_ : *events_; }
  // Bytes from `allocation` to the end of the allocation holding it (zeMemGetAddressRange);
  // invalid_argument when it is not memory of this context.
  std::size_t bytes_after(const void* allocation) const;
  // Whether this device reads `source`'s memory directly (zeDeviceCanAccessPeer, asked
  // once per pair): both in one driver's context and the driver allows it.
  bool can_access(const ZeDevice& source) const;
  // Throws plexus::error(device) for `result`, naming the device and `what`; out of device
  // or host memory names `bytes`.
  [[noreturn]] void fail(const std::string& what, const char* call, ze_result_t result) const;

 private:
  void free(void* memory, const char* what) const noexcept;

  Backend& backend_;
  const ZeDriver& driver_;
  ze_device_handle_t device_;
  DeviceInfo info_;
  std::uint32_t compute_ordinal_ = 0;
  std::size_t max_fill_pattern_ = 0;
  ZeClock clock_;
  bool host_usm_ = false, shared_usm_ = false;
  std::unique_ptr<ZeEventPool> events_, timestamp_events_;
  mutable std::mutex peers_mutex_;
  mutable std::map<const ZeDevice*, bool> peers_;  // can_access's answers
};

}  // namespace plexus::level_zero
