// ZeModule and ZeKernel: SPIR-V built for one Level Zero device (zeModuleCreate, the driver's
// build log in plexus::error(build) when it rejects the module) and a ze_kernel_handle_t per
// kernel the compiler reported (zeKernelCreate), allowed to reach every kind of USM through
// pointers held in memory (zeKernelSetIndirectAccess: host, device, shared).
//
// A Level Zero kernel object holds its arguments and group size, and a launch appended to a
// command list takes them as they are then; ZeKernel::lock() serialises that state between
// threads (prepare_launch, ze_launch.hpp, holds it from setting the arguments to appending).
//
// Ownership: a module owns its ze_module_handle_t and its kernels (destroyed with it); it
// must not outlive its ZeDevice. Thread-safety: immutable after construction except the
// kernels' state, guarded by their locks.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "plexus/device_module.hpp"

namespace plexus::level_zero {

class ZeDevice;

class ZeKernel final : public DeviceKernel {
 public:
  // `max_work_group_size`: the kernel's limit (ze_module.cpp, group_size_limit).
  ZeKernel(KernelInfo info, ze_kernel_handle_t kernel, const ZeDevice& device,
           std::uint64_t max_work_group_size)
      : info_(std::move(info)), kernel_(kernel), device_(device),
        max_work_group_size_(max_work_group_size) {}

  const KernelInfo& info() const override { return info_; }
  std::uint64_t max_work_group_size() const override { return max_work_group_size_; }
  ze_kernel_handle_t handle() const { return kernel_; }
  const ZeDevice& device() const { return device_; }
  std::unique_lock<std::mutex> lock() const { return std::unique_lock(mutex_); }

 private:
  KernelInfo info_;
  ze_kernel_handle_t kernel_;
  const ZeDevice& device_;
  std::uint64_t max_work_group_size_;
  mutable std::mutex mutex_;
};

class ZeModule final : public DeviceModule {
 public:
  // Throws plexus::error(build) with the driver's build log when it rejects the SPIR-V or a
  // reported kernel is not in it, plexus::error(device) otherwise.
  ZeModule(ZeDevice& device, std::span<const std::byte> spirv,
           const std::vector<KernelInfo>& kernels);
  ~ZeModule() override;

  Device& device() const override;
  const std::vector<KernelInfo>& kernels() const override { return infos_; }
  const DeviceKernel& kernel(const std::string& name) const override;

 private:
  ZeDevice& device_;
  ze_module_handle_t module_ = nullptr;
  std::vector<KernelInfo> infos_;
  std::vector<std::unique_ptr<ZeKernel>> kernels_;
};

}  // namespace plexus::level_zero
