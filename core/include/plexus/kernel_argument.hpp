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
  void* allocation = nullptr;   // allocation: what Device::allocate returned

  static KernelArgument of_allocation(void* allocation) {
    return {KernelArgumentKind::allocation, nullptr, sizeof(void*), allocation};
  }
  static KernelArgument of_scalar(const void* value, std::size_t size) {
    return {KernelArgumentKind::scalar, value, size, nullptr};
  }
  static KernelArgument of_local(std::size_t bytes) {
    return {KernelArgumentKind::local, nullptr, bytes, nullptr};
  }
};

}  // namespace plexus
