// OpenclDevice: one device of one OpenCL platform, with a cl_context of its own (created on
// first use, so discovery stays cheap).
//
// Memory: allocate() returns a cl_mem (clCreateBuffer, CL_MEM_READ_WRITE) cast to void*:
// not a pointer into device memory. It is what OpenCL copies and kernel arguments take
// (KernelArgument::of_allocation passes the cl_mem to clSetKernelArg); byte offsets are
// given through CopyLayout::offset, never by pointer arithmetic on the handle.
//
// Ownership: owned by its OpenclBackend, which must outlive it. The cl_device_id is a root
// device from clGetDeviceIDs: the ICD owns it, nothing to retain or release. Modules, queues
// and allocations must be released before the device.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "opencl_api.hpp"
#include "opencl_handle.hpp"
#include "plexus/backend.hpp"
#include "plexus/device.hpp"
#include "plexus/device_info.hpp"

namespace plexus::opencl {

// What the device description needs to know about the device's platform.
struct PlatformTraits {
  std::string name;    // CL_PLATFORM_NAME
  std::string vendor;  // CL_PLATFORM_VENDOR
  bool is_nvidia() const;
  bool is_pocl() const;
};

class OpenclDevice final : public Device {
 public:
  // Queries the device; throws plexus::error(device) naming the query that failed.
  OpenclDevice(Backend& backend, cl_platform_id platform, cl_device_id device,
               const PlatformTraits& traits);
  ~OpenclDevice() override;

  void* allocate(std::size_t bytes) override;
  void deallocate(void* allocation) noexcept override;
  std::shared_ptr<DeviceModule> load_module(BinaryFormat format, std::span<const std::byte> binary,
                                            const std::vector<KernelInfo>& kernels) override;
  std::unique_ptr<DeviceQueue> create_queue() override;

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  cl_platform_id platform() const { return platform_; }
  cl_device_id handle() const { return device_; }
  // The device's context, created on first use; throws plexus::error(device) when the
  // driver cannot create it (and tries again on the next call).
  cl_context context() const;
  // The size of an allocation this device made (CL_MEM_SIZE).
  std::size_t allocation_size(const void* allocation) const;

 private:
  Backend& backend_;
  cl_platform_id platform_;
  cl_device_id device_;
  DeviceInfo info_;
  mutable std::once_flag context_once_;
  mutable ContextHandle context_;
};

}  // namespace plexus::opencl
