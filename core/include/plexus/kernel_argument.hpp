// KernelArgument: one argument of a kernel launch as a backend receives it. Plain data that
// points into storage the caller keeps alive until the launch has been enqueued (backends
// copy argument values at enqueue time, as clSetKernelArg and cuLaunchKernel do).
#pragma once

#include <cstddef>

namespace plexus {

enum class KernelArgumentKind {
  allocation,  // a device allocation (Device::allocate) of this device: `allocation`
  scalar,      // a value of `size` bytes at `value`
  local,       // work-group local memory of `size` bytes (`value` unused)
};

struct KernelArgument {
  KernelArgumentKind kind = KernelArgumentKind::scalar;
  const void* value = nullptr;  // scalar: the bytes
  std::size_t size = 0;         // scalar: bytes of the value; local: bytes to reserve
  void* allocation = nullptr;   // allocation: what Device::allocate returned, or a USM address
  // allocation: `allocation` is a USM address (Device::allocate_usm, possibly inside the
  // allocation) rather than what Device::allocate returned. Backends whose allocations are
  // pointers already (host, CUDA) treat both alike; OpenCL passes it as an SVM pointer.
  bool usm = false;

  static KernelArgument of_allocation(void* allocation) {
    return {KernelArgumentKind::allocation, nullptr, sizeof(void*), allocation};
  }
  static KernelArgument of_usm(void* pointer) {
    return {KernelArgumentKind::allocation, nullptr, sizeof(void*), pointer, true};
  }
  static KernelArgument of_scalar(const void* value, std::size_t size) {
    return {KernelArgumentKind::scalar, value, size, nullptr};
  }
  static KernelArgument of_local(std::size_t bytes) {
    return {KernelArgumentKind::local, nullptr, bytes, nullptr};
  }
};

}  // namespace plexus
