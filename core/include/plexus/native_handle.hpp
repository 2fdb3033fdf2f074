// NativeHandle, NativeHandles: the native objects of a backend (a CUDA stream, an OpenCL
// command queue, a device pointer...) as opaque values with their C++ type, for native tasks
// (interop.hpp). A backend declares the type of each handle it gives out; the application
// names the type it expects (InteropHandle::native_queue<CUstream>()), and the two must agree.
//
//   NativeHandle::of(stream)        // CUstream: value = the pointer, type = typeid(CUstream)
//   NativeHandle::of(device_ptr)    // CUdeviceptr (an integer): value = its bits
//   NativeHandle::any_pointer(p)    // host memory: any T* is accepted (double*, float*...)
//   NativeHandle{}                  // none: the backend has no such object
//
// Matching (NativeHandle::matches): the declared type itself; void* for a handle declared as
// a pointer; std::uintptr_t for any handle (the raw bits); any object pointer type for a handle
// made with any_pointer(). Types are compared by their mangled names (typeid(T).name()), so
// a handle declared by a plugin built with hidden visibility matches the application's type.
//
// Plain values; the objects they name belong to the backend (valid as long as the device or
// queue that gave them). Thread-safety: immutable values.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <typeinfo>

namespace plexus {

struct NativeHandle {
  void* value = nullptr;
  const std::type_info* type = nullptr;  // nullptr: no handle
  bool is_pointer = false;               // declared as a pointer type
  bool any_pointer_type = false;         // any object pointer type matches (host memory)

  // A handle of pointer or integer type T (at most the size of a pointer).
  template <class T>
  static NativeHandle of(T handle) {
    static_assert(std::is_pointer_v<T> || std::is_integral_v<T>,
                  "a native handle is a pointer or an integer");
    static_assert(sizeof(T) <= sizeof(void*), "a native handle fits in a pointer");
    NativeHandle result;
    result.type = &typeid(T);
    result.is_pointer = std::is_pointer_v<T>;
    if constexpr (std::is_pointer_v<T>) {
      result.value = const_cast<void*>(static_cast<const volatile void*>(handle));
    } else {
      result.value = reinterpret_cast<void*>(static_cast<std::uintptr_t>(handle));
    }
    return result;
  }
  // Host memory: a pointer that the application may read as any T*.
  static NativeHandle any_pointer(void* pointer) {
    NativeHandle result = of(pointer);
    result.any_pointer_type = true;
    return result;
  }

  bool present() const { return type != nullptr; }

  // Whether the application may read this handle as T (the rules above).
  template <class T>
  bool matches() const {
    if (!type) return false;
    if (std::is_same_v<T, std::uintptr_t>) return true;
    if constexpr (std::is_pointer_v<T>) {
      if (is_pointer && std::is_same_v<T, void*>) return true;
      if (any_pointer_type && std::is_object_v<std::remove_pointer_t<T>>) return true;
    }
    return std::strcmp(type->name(), typeid(T).name()) == 0;
  }

  // The value as T; call only when matches<T>().
  template <class T>
  T as() const {
    if constexpr (std::is_pointer_v<T>) {
      return reinterpret_cast<T>(value);
    } else {
      return static_cast<T>(reinterpret_cast<std::uintptr_t>(value));
    }
  }
};

// What a DeviceQueue gives a native task (DeviceQueue::native_handles).
struct NativeHandles {
  std::string_view backend;  // the name implementations are keyed by: "cuda", "opencl", "host"
  NativeHandle context;      // CUcontext, cl_context; none on the host
  NativeHandle queue;        // CUstream, cl_command_queue; none on the host
  NativeHandle device;       // CUdevice, cl_device_id; none on the host
};

}  // namespace plexus
