// HipModule and HipKernel: an AMDGCN code object loaded on one HIP device
// (hipModuleLoadData) and a hipFunction_t per kernel the compiler reported
// (hipModuleGetFunction), with the attributes a launch needs.
//
// Ownership: a module owns its hipModule_t (unloaded with it); it must not outlive its
// HipDevice. Thread-safety: immutable after construction; functions may be launched from
// any thread (hipModuleLaunchKernel copies the arguments).
#pragma once

#include <hip/hip_runtime_api.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "plexus/device_module.hpp"

namespace plexus::hip {

class HipDevice;

class HipKernel final : public DeviceKernel {
 public:
  HipKernel(KernelInfo info, hipFunction_t function, const HipDevice& device,
            std::size_t static_shared_bytes, std::size_t max_threads)
      : info_(std::move(info)),
        function_(function),
        device_(device),
        static_shared_bytes_(static_shared_bytes),
        max_threads_(max_threads) {}

  const KernelInfo& info() const override { return info_; }
  std::uint64_t max_work_group_size() const override { return max_threads_; }
  hipFunction_t handle() const { return function_; }
  const HipDevice& device() const { return device_; }
  std::size_t static_shared_bytes() const { return static_shared_bytes_; }  // __local arrays
  std::size_t max_threads() const { return max_threads_; }                  // per block

 private:
  KernelInfo info_;
  hipFunction_t function_;
  const HipDevice& device_;
  std::size_t static_shared_bytes_;
  std::size_t max_threads_;
};

class HipModule final : public DeviceModule {
 public:
  // Throws plexus::error(build) when the runtime rejects the code object (not one for this
  // GPU, or not a code object) or a reported kernel is not in it, plexus::error(device)
  // otherwise.
  HipModule(HipDevice& device, std::span<const std::byte> code_object,
            const std::vector<KernelInfo>& kernels);
  ~HipModule() override;

  Device& device() const override;
  const std::vector<KernelInfo>& kernels() const override { return infos_; }
  const DeviceKernel& kernel(const std::string& name) const override;

 private:
  HipDevice& device_;
  hipModule_t module_ = nullptr;
  std::vector<KernelInfo> infos_;
  std::vector<std::unique_ptr<HipKernel>> kernels_;
};

}  // namespace plexus::hip
