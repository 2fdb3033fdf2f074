// ClHandle: sole ownership of one OpenCL object (context, queue, program, kernel, event,
// memory object), released with its clRelease* function when the handle dies.
// Movable, not copyable. Thread-safety: as a plain pointer (one owner at a time).
#pragma once

#include <utility>

#include "opencl_api.hpp"

namespace plexus::opencl {

template <class T, cl_int (*Release)(T)>
class ClHandle {
 public:
  ClHandle() = default;
  explicit ClHandle(T object) : object_(object) {}
  ClHandle(ClHandle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  ClHandle& operator=(ClHandle&& other) noexcept {
    if (this != &other) reset(std::exchange(other.object_, nullptr));
    return *this;
  }
  ClHandle(const ClHandle&) = delete;
  ClHandle& operator=(const ClHandle&) = delete;
  ~ClHandle() { reset(); }

  T get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  void reset(T object = nullptr) {
    if (object_) Release(object_);
    object_ = object;
  }

 private:
  T object_ = nullptr;
};

using ContextHandle = ClHandle<cl_context, clReleaseContext>;
using QueueHandle = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using ProgramHandle = ClHandle<cl_program, clReleaseProgram>;
using KernelHandle = ClHandle<cl_kernel, clReleaseKernel>;
using EventHandle = ClHandle<cl_event, clReleaseEvent>;

}  // namespace plexus::opencl
