// DeviceModule and DeviceKernel: device code a backend has loaded for one device (a JIT-
// compiled host module, a cl_program, a CUmodule) and the kernels in it.
//
// Ownership: a module is shared (std::shared_ptr) by the bundles and tasks that use it and
// must not outlive its device. A kernel belongs to its module and is valid while the module
// lives. Thread-safety: immutable after loading; every member is safe from any thread, and
// one kernel may be launched from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plexus/export.hpp"
#include "plexus/kernel_info.hpp"

namespace plexus {

class Device;

class PLEXUS_API DeviceKernel {
 public:
  DeviceKernel() = default;
  DeviceKernel(const DeviceKernel&) = delete;
  DeviceKernel& operator=(const DeviceKernel&) = delete;
  virtual ~DeviceKernel();

  virtual const KernelInfo& info() const = 0;
  // The largest work-group (work-items of all dimensions together) a launch of this kernel
  // may use on its module's device: the device's max_work_group_size at most, less where
  // the kernel's own resources allow fewer (registers, local memory, sub-group layout). What
  // SYCL's info::kernel_device_specific::work_group_size, CUDA's
  // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK and OpenCL's CL_KERNEL_WORK_GROUP_SIZE say.
  // Known when the module is loaded: no driver call here.
  virtual std::uint64_t max_work_group_size() const = 0;
};

class PLEXUS_API DeviceModule {
 public:
  DeviceModule() = default;
  DeviceModule(const DeviceModule&) = delete;
  DeviceModule& operator=(const DeviceModule&) = delete;
  virtual ~DeviceModule();

  virtual Device& device() const = 0;
  virtual const std::vector<KernelInfo>& kernels() const = 0;
  // Throws plexus::error(invalid_argument) listing the module's kernels when `name` is not
  // one of them.
  virtual const DeviceKernel& kernel(const std::string& name) const = 0;
};

}  // namespace plexus
