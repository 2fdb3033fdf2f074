// USM on OpenCL devices through OpenCL 2.0 shared virtual memory (OpenclDevice's
// allocate_usm, OpenclQueue's usm_copy and usm_fill).
#include <bit>
#include <cstdint>
#include <string>

#include "opencl_device.hpp"
#include "opencl_queue.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace plexus::opencl {
namespace {

// The SVM capability a kind needs, and how the allocation asks for it.
cl_device_svm_capabilities needed(UsmKind kind) {
  return kind == UsmKind::device ? CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
                                 : CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
}

std::string capabilities_text(cl_device_svm_capabilities caps) {
  std::string text;
  const auto add = [&](cl_device_svm_capabilities bit, const char* name) {
    if (caps & bit) text += (text.empty() ? "" : ", ") + std::string(name);
  };
  add(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "coarse-grain buffer");
  add(CL_DEVICE_SVM_FINE_GRAIN_BUFFER, "fine-grain buffer");
  add(CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, "fine-grain system");
  return text.empty() ? "none" : text;
}

}  // namespace

bool OpenclDevice::supports_usm(UsmKind kind) const { return (svm_ & needed(kind)) != 0; }

void* OpenclDevice::allocate_usm(UsmKind kind, std::size_t bytes) {
  const std::string what = "malloc_" + std::string(to_string(kind)) + " of " +
                           std::to_string(bytes) + " bytes on OpenCL device '" + info_.name + "'";
  if (bytes == 0) throw error(error_category::invalid_argument, what + ": 0 bytes requested");
  if (!supports_usm(kind))
    throw error(
        error_category::unsupported,
        what + ": the device's SVM capabilities (" + capabilities_text(svm_) + ") lack " +
            (kind == UsmKind::device ? "coarse-grain buffer SVM" : "fine-grain buffer SVM") +
            ", which USM " + std::string(to_string(kind)) + " memory needs here");
  cl_svm_mem_flags flags = CL_MEM_READ_WRITE;
  if (kind != UsmKind::device) flags |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
  void* pointer = clSVMAlloc(context(), flags, bytes, 0);
  if (!pointer)
    throw error(error_category::device,
                what +
                    ": clSVMAlloc failed (out of device memory, or more than the device's "
                    "largest allocation)");
  return pointer;
}

void OpenclDevice::deallocate_usm(UsmKind, void* pointer) noexcept {
  if (!pointer) return;
  try {
    clSVMFree(context(), pointer);
  } catch (const std::exception& failure) {
    logger().warn("opencl backend: deallocate_usm: {}", failure.what());
  }
}

void OpenclQueue::usm_copy(void* destination, const void* source, std::size_t bytes) {
  const std::string what = "USM copy of " + std::to_string(bytes) + " bytes on OpenCL device '" +
                           device_.info().name + "'";
  validate_usm_copy(destination, source, what);
  if (bytes == 0 || !failure_.empty()) return;
  cl_event event = nullptr;
  check(clEnqueueSVMMemcpy(queue_.get(), CL_FALSE, destination, source, bytes, 0, nullptr, &event),
        "clEnqueueSVMMemcpy", what);
  track(event, what);
}

bool OpenclQueue::usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                           std::size_t bytes) {
  const std::string what = "USM fill of " + std::to_string(bytes) + " bytes on OpenCL device '" +
                           device_.info().name + "'";
  validate_usm_fill(destination, pattern, pattern_size, bytes, what);
  if (!std::has_single_bit(pattern_size) || pattern_size > 128 ||
      reinterpret_cast<std::uintptr_t>(destination) % pattern_size != 0)
    return false;  // clEnqueueSVMMemFill's limits
  if (bytes == 0 || !failure_.empty()) return true;
  cl_event event = nullptr;
  check(clEnqueueSVMMemFill(queue_.get(), destination, pattern, pattern_size, bytes, 0, nullptr,
                            &event),
        "clEnqueueSVMMemFill", what);
  track(event, what);
  return true;
}

}  // namespace plexus::opencl
