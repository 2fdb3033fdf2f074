// OpenclDevice: one device of one OpenCL platform, with its platform's shared cl_context
// (PlatformContext, so that copies between the platform's devices stay on the devices) or a
// context of its own; created on first use, so discovery stays cheap.
//
// Memory: allocate() returns a cl_mem (clCreateBuffer, CL_MEM_READ_WRITE) cast to void*:
// not a pointer into device memory. It is what OpenCL copies and kernel arguments take
// (KernelArgument::of_allocation passes the cl_mem to clSetKernelArg); byte offsets are
// given through CopyLayout::offset, never by pointer arithmetic on the handle. USM
// (allocate_usm) is SVM: real addresses, passed with clSetKernelArgSVMPointer.
//
// Ownership: owned by its OpenclBackend, which must outlive it. The cl_device_id is a root
// device from clGetDeviceIDs: the ICD owns it, nothing to retain or release. Modules, queues
// and allocations must be released before the device.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "opencl_api.hpp"
#include "opencl_cancel_cells.hpp"
#include "opencl_graph.hpp"
#include "opencl_handle.hpp"
#include "opencl_platform_context.hpp"
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
  // USM through OpenCL 2.0 SVM (clSVMAlloc in the device's context): device allocations
  // are coarse-grained buffer SVM, host and shared ones fine-grained buffer SVM (the host
  // uses them in place), each where CL_DEVICE_SVM_CAPABILITIES reports it. In
  // opencl_usm.cpp.
  bool supports_usm(UsmKind kind) const override;
  void* allocate_usm(UsmKind kind, std::size_t bytes) override;
  void deallocate_usm(UsmKind kind, void* pointer) noexcept override;
  std::shared_ptr<DeviceModule> load_module(BinaryFormat format, std::span<const std::byte> binary,
                                            const std::vector<KernelInfo>& kernels) override;
  std::unique_ptr<DeviceQueue> create_queue() override;
  // Devices other than CPUs (pins_host_memory): a CL_MEM_ALLOC_HOST_PTR buffer mapped for
  // good, which drivers such as NVIDIA's page-lock (unmapped and released by
  // deallocate_host); CPU devices: plain page-aligned memory. In opencl_device_copies.cpp.
  void* allocate_host(std::size_t bytes) override;
  void deallocate_host(void* memory) noexcept override;
  bool pins_host_memory() const override { return info_.type != DeviceType::cpu; }

  const DeviceInfo& info() const override { return info_; }
  Backend& backend() const override { return backend_; }
  // Native tasks: "opencl"; memory is the allocation's cl_mem.
  std::string_view native_backend() const override { return "opencl"; }
  NativeHandle native_memory(void* allocation) const override {
    return NativeHandle::of(static_cast<cl_mem>(allocation));
  }
  cl_platform_id platform() const { return platform_; }
  cl_device_id handle() const { return device_; }
  // Makes the device use `shared` (its platform's context) instead of a context of its own.
  // Called by the backend while discovering devices, before anyone uses the device.
  void share_context(std::shared_ptr<const PlatformContext> shared) { shared_ = std::move(shared); }
  // The device's context (its platform's when shared and the driver allows it), created on
  // first use; throws plexus::error(device) when the driver cannot create it (and tries
  // again on the next call).
  cl_context context() const;
  // Whether memory of `other` can be copied on this device (one context).
  bool shares_context_with(const OpenclDevice& other) const {
    return &other == this || context() == other.context();
  }
  // The size of an allocation this device made (CL_MEM_SIZE).
  std::size_t allocation_size(const void* allocation) const;
  // cl_khr_command_buffer's entry points (opencl_graph.hpp), or nullptr when the device
  // does not offer the extension.
  const CommandBufferApi* command_buffers() const {
    return command_buffers_ ? &*command_buffers_ : nullptr;
  }
  // The cancel cells of cancellable launches (opencl_cancel_cells.hpp), made on first use
  // (in the device's context). Throws as context().
  CancelCells& cancel_cells() const;

 private:
  Backend& backend_;
  cl_platform_id platform_;
  cl_device_id device_;
  DeviceInfo info_;
  std::optional<CommandBufferApi> command_buffers_;
  cl_device_svm_capabilities svm_ = 0;  // CL_DEVICE_SVM_CAPABILITIES (0: none, or OpenCL 1.x)
  std::shared_ptr<const PlatformContext> shared_;
  mutable std::once_flag context_once_;
  mutable ContextHandle context_;
  mutable std::once_flag cancel_once_;
  mutable std::shared_ptr<CancelCells> cancel_cells_;
  std::mutex host_mutex_;
  std::unordered_map<void*, cl_mem> host_buffers_;  // allocate_host's mapped buffers
};

}  // namespace plexus::opencl
