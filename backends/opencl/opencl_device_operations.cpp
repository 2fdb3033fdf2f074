// OpenclDevice's operations: its context, memory (cl_mem handles), modules and queues.
#include <algorithm>
#include <string>

#include "opencl_device.hpp"
#include "opencl_module.hpp"
#include "opencl_query.hpp"
#include "opencl_queue.hpp"
#include "plexus/error.hpp"

namespace plexus::opencl {

OpenclDevice::~OpenclDevice() = default;

cl_context OpenclDevice::context() const {
  std::call_once(context_once_, [this] {
    if (cl_context shared = shared_ ? shared_->get() : nullptr) {
      clRetainContext(shared);
      context_.reset(shared);
      return;
    }
    cl_int code = CL_SUCCESS;
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
    cl_context context = clCreateContext(properties, 1, &device_, nullptr, nullptr, &code);
    if (code != CL_SUCCESS)
      throw error(error_category::device, "clCreateContext for OpenCL device '" + info_.name +
                                              "' failed: " + error_name(code));
    context_.reset(context);
  });
  return context_.get();
}

void* OpenclDevice::allocate(std::size_t bytes) {
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "allocate on OpenCL device '" + info_.name + "': 0 bytes requested");
  // Some drivers (NVIDIA's) create buffers lazily and accept any size here, failing only at
  // the first use; a buffer larger than the device's memory can never be backed.
  if (info_.global_memory_bytes != 0 && bytes > info_.global_memory_bytes)
    throw error(error_category::device, "clCreateBuffer of " + std::to_string(bytes) +
                                            " bytes on OpenCL device '" + info_.name +
                                            "': more than the device's memory (" +
                                            std::to_string(info_.global_memory_bytes) + " bytes)");
  cl_int code = CL_SUCCESS;
  cl_mem memory = clCreateBuffer(context(), CL_MEM_READ_WRITE, bytes, nullptr, &code);
  if (code != CL_SUCCESS) {
    std::string hint;
    if (code == CL_INVALID_BUFFER_SIZE) {
      const auto largest = try_device_scalar<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
      hint = "; the largest allocation this device allows is " +
             (largest ? std::to_string(*largest) + " bytes" : std::string("unknown"));
    }
    throw error(error_category::device, "clCreateBuffer of " + std::to_string(bytes) +
                                            " bytes on OpenCL device '" + info_.name +
                                            "' failed: " + error_name(code) + hint);
  }
  return memory;
}

void OpenclDevice::deallocate(void* allocation) noexcept {
  if (allocation) clReleaseMemObject(static_cast<cl_mem>(allocation));
}

std::size_t OpenclDevice::allocation_size(const void* allocation) const {
  std::size_t size = 0;
  const cl_int code = clGetMemObjectInfo(static_cast<cl_mem>(const_cast<void*>(allocation)),
                                         CL_MEM_SIZE, sizeof size, &size, nullptr);
  if (code != CL_SUCCESS)
    throw error(error_category::invalid_argument,
                "OpenCL device '" + info_.name + "': " + error_name(code) +
                    " from clGetMemObjectInfo: the allocation is not a live cl_mem of this "
                    "backend (pass what Device::allocate returned)");
  return size;
}

std::shared_ptr<DeviceModule> OpenclDevice::load_module(BinaryFormat format,
                                                        std::span<const std::byte> binary,
                                                        const std::vector<KernelInfo>& kernels) {
  if (std::find(info_.formats.begin(), info_.formats.end(), format) == info_.formats.end()) {
    std::string loads;
    for (BinaryFormat each : info_.formats)
      loads += (loads.empty() ? "" : ", ") + std::string(to_string(each));
    throw error(error_category::unsupported,
                "OpenCL device '" + info_.name + "' does not load " +
                    std::string(to_string(format)) + " code; it loads: " + loads);
  }
  if (binary.empty())
    throw error(error_category::invalid_argument,
                "load_module on OpenCL device '" + info_.name + "': the " +
                    std::string(to_string(format)) + " binary is empty");
  return std::make_shared<OpenclModule>(*this, format, binary, kernels);
}

std::unique_ptr<DeviceQueue> OpenclDevice::create_queue() {
  return std::make_unique<OpenclQueue>(*this);
}

}  // namespace plexus::opencl
