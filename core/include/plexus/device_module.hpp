// DeviceModule and DeviceKernel: device code a backend has loaded for one device (a JIT-
// compiled host module, a cl_program, a CUmodule) and the kernels in it.
//
// Ownership: a module is shared (std::shared_ptr) by the bundles and tasks that use it and
// must not outlive its device. A kernel belongs to its module and is valid while the module
// lives. Thread-safety: immutable after loading; every member is safe from any thread, and
// one kernel may be launched from several threads at once.
#pragma once

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
