// CudaModule and CudaKernel: PTX loaded into a CUDA device's primary context
// (cuModuleLoadDataEx; the driver JIT-compiles it for the GPU; ".ptr .shared" parameter
// annotations of OpenCL PTX are removed first) and a CUfunction per kernel
// the compiler reported, with the attributes a launch needs.
//
// Ownership: a module owns its CUmodule (unloaded with the module); it must not outlive its
// CudaDevice. Thread-safety: immutable after construction; CUfunctions may be launched from
// any thread (cuLaunchKernel copies the parameters).
#pragma once

#include <cuda.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "plexus/device_module.hpp"

namespace plexus::cuda {

class CudaDevice;

class CudaKernel final : public DeviceKernel {
 public:
  CudaKernel(KernelInfo info, CUfunction function, const CudaDevice& device,
             std::size_t static_shared_bytes, std::size_t max_threads)
      : info_(std::move(info)),
        function_(function),
        device_(device),
        static_shared_bytes_(static_shared_bytes),
        max_threads_(max_threads) {}

  const KernelInfo& info() const override { return info_; }
  std::uint64_t max_work_group_size() const override { return max_threads_; }
  CUfunction handle() const { return function_; }
  const CudaDevice& device() const { return device_; }
  std::size_t static_shared_bytes() const { return static_shared_bytes_; }  // __local arrays
  std::size_t max_threads() const { return max_threads_; }                  // per block

 private:
  KernelInfo info_;
  CUfunction function_;
  const CudaDevice& device_;
  std::size_t static_shared_bytes_;
  std::size_t max_threads_;
};

class CudaModule final : public DeviceModule {
 public:
  // Throws plexus::error(build) with the JIT's error log when the driver rejects the PTX,
  // plexus::error(build) when a reported kernel is not in it, plexus::error(device) otherwise.
  CudaModule(CudaDevice& device, std::span<const std::byte> ptx,
             const std::vector<KernelInfo>& kernels);
  ~CudaModule() override;

  Device& device() const override;
  const std::vector<KernelInfo>& kernels() const override { return infos_; }
  const DeviceKernel& kernel(const std::string& name) const override;

 private:
  CudaDevice& device_;
  CUmodule module_ = nullptr;
  std::vector<KernelInfo> infos_;
  std::vector<std::unique_ptr<CudaKernel>> kernels_;
};

}  // namespace plexus::cuda
