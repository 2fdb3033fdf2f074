// Device -> device copies of the OpenCL backend (OpenclQueue::copy_from_device, between
// memory objects of one context), copies and fills within the device's memory (buffer
// commands: copy_within, fill_within) and the host memory of staged copies
// (OpenclDevice::allocate_host).
#include <array>
#include <bit>
#include <string>

#include "opencl_copy_origin.hpp"
#include "opencl_device.hpp"
#include "opencl_query.hpp"
#include "opencl_queue.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::opencl {
namespace {

// A command queue for mapping and unmapping host buffers (rare: the runtime keeps them).
QueueHandle mapping_queue(const OpenclDevice& device) {
  cl_int code = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue(device.context(), device.handle(), 0, &code);
  if (code != CL_SUCCESS)
    throw error(error_category::device, "clCreateCommandQueue on OpenCL device '" +
                                            device.info().name + "' failed: " + error_name(code));
  return QueueHandle(queue);
}

}  // namespace

void* OpenclDevice::allocate_host(std::size_t bytes) {
  if (!pins_host_memory()) return Device::allocate_host(bytes);
  if (bytes == 0)
    throw error(error_category::invalid_argument,
                "allocate_host on OpenCL device '" + info_.name + "': 0 bytes requested");
  const std::string what =
      "allocate_host of " + std::to_string(bytes) + " bytes on OpenCL device '" + info_.name + "'";
  cl_int code = CL_SUCCESS;
  cl_mem buffer =
      clCreateBuffer(context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, nullptr, &code);
  if (code != CL_SUCCESS)
    throw error(error_category::device, what + ": clCreateBuffer failed: " + error_name(code));
  const QueueHandle queue = mapping_queue(*this);
  void* memory = clEnqueueMapBuffer(queue.get(), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                    bytes, 0, nullptr, nullptr, &code);
  if (code != CL_SUCCESS) {
    clReleaseMemObject(buffer);
    throw error(error_category::device, what + ": clEnqueueMapBuffer failed: " + error_name(code));
  }
  std::lock_guard lock(host_mutex_);
  host_buffers_[memory] = buffer;
  return memory;
}

void OpenclDevice::deallocate_host(void* memory) noexcept {
  if (!memory) return;
  if (!pins_host_memory()) return Device::deallocate_host(memory);
  cl_mem buffer = nullptr;
  {
    std::lock_guard lock(host_mutex_);
    const auto found = host_buffers_.find(memory);
    if (found == host_buffers_.end()) return;
    buffer = found->second;
    host_buffers_.erase(found);
  }
  try {
    const QueueHandle queue = mapping_queue(*this);
    clEnqueueUnmapMemObject(queue.get(), buffer, memory, 0, nullptr, nullptr);
    clFinish(queue.get());
  } catch (const std::exception& e) {
    logger().warn("opencl backend: deallocate_host: {}", e.what());
  }
  clReleaseMemObject(buffer);
}

bool OpenclQueue::copy_from_device(void* allocation, Device& source, const void* source_allocation,
                                   const CopyLayout& layout) {
  const auto* from = dynamic_cast<const OpenclDevice*>(&source);
  if (!from || !device_.shares_context_with(*from)) return false;
  const std::string what = "copy_from_device of " + std::to_string(layout.bytes()) +
                           " bytes from '" + from->info().name + "' on OpenCL device '" +
                           device_.info().name + "'";
  auto* target = static_cast<cl_mem>(allocation);
  auto* origin = static_cast<cl_mem>(const_cast<void*>(source_allocation));
  validate_copy(layout, target, origin, target ? device_.allocation_size(target) : 0, what);
  validate_copy(layout, origin, target, origin ? from->allocation_size(origin) : 0, what);
  if (!failure_.empty()) return true;  // a failed queue runs nothing until wait() reports it
  if (layout.rows == 1 && layout.slices == 1) {
    cl_event event = nullptr;
    check(clEnqueueCopyBuffer(queue_.get(), origin, target, layout.offset, layout.offset,
                              layout.row_bytes, 0, nullptr, &event),
          "clEnqueueCopyBuffer", what);
    track(event, what);
    return true;
  }
  for (const RectCopy& rect : rect_copies_of(layout)) {
    cl_event event = nullptr;
    check(clEnqueueCopyBufferRect(queue_.get(), origin, target, rect.origin.data(),
                                  rect.origin.data(), rect.region.data(), rect.row_pitch,
                                  rect.slice_pitch, rect.row_pitch, rect.slice_pitch, 0, nullptr,
                                  &event),
          "clEnqueueCopyBufferRect", what);
    track(event, what);
  }
  return true;
}

bool OpenclQueue::copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                              std::size_t source_offset, std::size_t bytes) {
  const std::string what = "copy_within of " + std::to_string(bytes) + " bytes on OpenCL device '" +
                           device_.info().name + "'";
  auto* target = static_cast<cl_mem>(allocation);
  auto* origin = static_cast<cl_mem>(const_cast<void*>(source_allocation));
  validate_copy(CopyLayout::contiguous(offset, bytes), target, origin,
                target ? device_.allocation_size(target) : 0, what);
  validate_copy(CopyLayout::contiguous(source_offset, bytes), origin, target,
                origin ? device_.allocation_size(origin) : 0, what);
  if (bytes == 0 || !failure_.empty()) return true;
  cl_event event = nullptr;
  check(clEnqueueCopyBuffer(queue_.get(), origin, target, source_offset, offset, bytes, 0, nullptr,
                            &event),
        "clEnqueueCopyBuffer", what);
  track(event, what);
  return true;
}

bool OpenclQueue::fill_within(void* allocation, std::size_t offset, const void* pattern,
                              std::size_t pattern_size, std::size_t bytes) {
  const std::string what = "fill_within of " + std::to_string(bytes) + " bytes on OpenCL device '" +
                           device_.info().name + "'";
  auto* target = static_cast<cl_mem>(allocation);
  validate_copy(CopyLayout::contiguous(offset, bytes), target, pattern,
                target ? device_.allocation_size(target) : 0, what);
  if (pattern_size == 0 || bytes % pattern_size != 0 || offset % pattern_size != 0)
    throw error(error_category::invalid_argument,
                what + ": the offset and size must be multiples of the " +
                    std::to_string(pattern_size) + "-byte pattern");
  if (!std::has_single_bit(pattern_size) || pattern_size > 128) return false;  // OpenCL's limits
  if (bytes == 0 || !failure_.empty()) return true;
  cl_event event = nullptr;
  check(clEnqueueFillBuffer(queue_.get(), target, pattern, pattern_size, offset, bytes, 0, nullptr,
                            &event),
        "clEnqueueFillBuffer", what);
  track(event, what);
  return true;
}

}  // namespace plexus::opencl
