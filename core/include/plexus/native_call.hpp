// NativeCall: a call of a native function registered by name (native_function.hpp), as plain
// data that can cross a process boundary: the function's name, the type of its arguments
// and their bytes. A native task's implementation made from a NativeFunction carries one
// (NativeImplementation::call), so that a device of another process (the mpi backend's
// remote devices) runs the same function in the process that has the device, where a
// closure of the application could not go (DeviceQueue::enqueue_native_call).
//
// Plain values. Thread-safety: immutable once made; shared by the tasks that use it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace plexus {

struct NativeCall {
  std::string function;              // the registered name: "cholesky.tile"
  std::string backend;               // the backend it is for (Device::native_backend())
  std::string arguments_type;        // typeid(Args).name() of the registered function
  std::vector<std::byte> arguments;  // the Args value's bytes (trivially copyable)
};

}  // namespace plexus
