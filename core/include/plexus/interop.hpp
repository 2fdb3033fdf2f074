// Native tasks (interop): a command group whose work is the application's own code calling a
// backend's native API (cuBLAS on a CUDA stream, clEnqueue* on an OpenCL queue, OpenBLAS on
// the host), with one implementation per backend; the scheduler picks the device, the memory
// model makes the accessors' data valid there first, and the task ends when the native queue
// has run what the implementation enqueued. SYCL's host_task + interop_handle and StarPU's
// codelets, in one (docs/api.md, "Native tasks (interop)").
//
//   q.submit([&](plexus::Handler& h) {
//     auto a = buf.access(h, plexus::read_write);
//     h.native_task("scale", {
//       {"cuda", [=](plexus::InteropHandle& ih) {
//          auto stream = ih.native_queue<CUstream>();
//          auto base = ih.native_memory<CUdeviceptr>(a);   // the whole buffer's allocation
//          my_scale_async(base, n, stream);                  // enqueue only: no synchronize
//        }},
//       {"host", [=](plexus::InteropHandle& ih) { scale(ih.native_memory<double*>(a), n); }},
//     });
//   });
//
// An implementation is a callable taking InteropHandle& and returning void or int (nonzero:
// the task fails with "native task 'NAME' (BACKEND) returned error code N"); an exception
// fails it with its message. It runs once, on a scheduler thread, after the task's
// dependencies; on a device with its own queue it only enqueues (the task ends when the
// queue has run it, with no host synchronisation), on the host backend it is the work.
// native_memory() is the allocation of the whole buffer on the chosen device, laid out as
// the host copy: apply the accessor's offset yourself. Only the accessors' ranges are valid.
// native_memory_bytes() is that allocation's size (the buffer's elements x element size): the
// bound of what the implementation may touch from native_memory(); a function whose
// arguments say how much it touches checks them first (require_memory()), so that a wrong
// size is an error naming it, not a write past the allocation.
//
// An implementation made from a registered native function (native_function.hpp) carries
// its call as data (NativeImplementation::call): it is the only kind that runs on a device of
// another process (Device::runs_native_closures() false: the mpi backend's remote devices),
// where the function runs in the process that has the device, with that device's handles.
//
// Thread-safety: an InteropHandle is used by the one thread running the implementation,
// during that call only. Implementations are copied into the task (captures by value).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "plexus/export.hpp"
#include "plexus/native_call.hpp"
#include "plexus/native_handle.hpp"

namespace plexus {

class Device;
class InteropHandle;
template <class T, int Dims>
class Accessor;

namespace detail {
class BufferStorage;
}  // namespace detail

// One backend's implementation of a native task: {"cuda", callable}.
struct NativeImplementation {
  std::string backend;                         // a device's Device::native_backend()
  std::function<int(InteropHandle&)> run;      // 0: success
  // Set by NativeFunction (native_function.hpp): the registered function `run` calls, as
  // data that another process can run; nullptr for a closure.
  std::shared_ptr<const NativeCall> call;

  template <class Work>
  NativeImplementation(std::string backend_name, Work work) : backend(std::move(backend_name)) {
    using Result = std::invoke_result_t<Work&, InteropHandle&>;
    static_assert(std::is_void_v<Result> || std::is_convertible_v<Result, int>,
                  "a native implementation returns void or an int error code (0: success)");
    if constexpr (std::is_void_v<Result>) {
      run = [work = std::move(work)](InteropHandle& handle) mutable {
        work(handle);
        return 0;
      };
    } else {
      run = [work = std::move(work)](InteropHandle& handle) mutable {
        return static_cast<int>(work(handle));
      };
    }
  }
};

// What an implementation is given: the chosen device's native objects and the native memory
// of the task's accessors. Native types are checked against what the backend declares
// (NativeHandle::matches): a wrong type is plexus::error(invalid_argument) naming both.
//   cuda:   native_queue<CUstream>, native_context<CUcontext>, native_device<CUdevice>,
//           native_memory<CUdeviceptr>
//   opencl: native_queue<cl_command_queue>, native_context<cl_context>,
//           native_device<cl_device_id>, native_memory<cl_mem>
//   host:   native_memory<T*> (no queue, context or device objects)
class PLEXUS_API InteropHandle {
 public:
  // The memory of the task's accessors (by requirement index: the order the command group
  // made them in) on the chosen device; the core provides it, and a process that runs a
  // native function for another one (an mpi worker) provides its own.
  class Memory {
   public:
    virtual ~Memory();
    // How many accessors the task has.
    virtual std::size_t accessors() const = 0;
    // The native handle of accessor `requirement`'s allocation. `storage`: the accessor's
    // buffer, checked against that requirement's; nullptr when the caller has only the
    // index. plexus::error(invalid_argument) for another group's accessor or an index past
    // accessors().
    virtual NativeHandle memory(const detail::BufferStorage* storage, std::size_t requirement) const = 0;
    // The allocation itself (Device::allocate's) of accessor `requirement`: what a queue
    // forwards to another process (DeviceQueue::enqueue_native_call).
    virtual void* allocation(std::size_t requirement) const = 0;
    // The bytes of that allocation from its start (the whole buffer's bytes, whatever the
    // accessor's range): how far native code may go from memory(). Errors as allocation().
    virtual std::size_t bytes(std::size_t requirement) const = 0;
  };

  InteropHandle(const std::string& task, Device& device, const NativeHandles& handles,
                const Memory& memory)
      : task_(task), device_(device), handles_(handles), memory_(memory) {}
  InteropHandle(const InteropHandle&) = delete;
  InteropHandle& operator=(const InteropHandle&) = delete;

  const std::string& task_name() const { return task_; }
  std::string_view backend() const { return handles_.backend; }
  Device& device() const { return device_; }
  const NativeHandles& native_handles() const { return handles_; }

  template <class T>
  T native_queue() const {
    return checked<T>(handles_.queue, "native_queue");
  }
  template <class T>
  T native_context() const {
    return checked<T>(handles_.context, "native_context");
  }
  template <class T>
  T native_device() const {
    return checked<T>(handles_.device, "native_device");
  }
  // The allocation of the accessor's whole buffer on the device (not offset by the
  // accessor's range). The accessor must be one of this command group's.
  template <class T, class Element, int Dims>
  T native_memory(const Accessor<Element, Dims>& accessor) const {
    return checked<T>(memory_.memory(accessor.storage().get(), accessor.requirement_index()),
                      "native_memory");
  }
  // The same by the accessor's index in the command group (the order it made them in:
  // Accessor::requirement_index()), for code that has no Accessor object: a registered
  // native function (native_function.hpp), which may run in another process.
  template <class T>
  T native_memory(std::size_t accessor) const {
    return checked<T>(memory_.memory(nullptr, accessor), "native_memory");
  }
  // How many accessors the task has.
  std::size_t accessors() const { return memory_.accessors(); }
  // The bytes of native_memory(accessor): the whole buffer's allocation, from its start (not
  // the accessor's range; only that range holds valid data). Errors as native_memory().
  std::size_t native_memory_bytes(std::size_t accessor) const { return memory_.bytes(accessor); }
  template <class Element, int Dims>
  std::size_t native_memory_bytes(const Accessor<Element, Dims>& accessor) const {
    memory_.memory(accessor.storage().get(), accessor.requirement_index());  // checks it is ours
    return memory_.bytes(accessor.requirement_index());
  }
  // Throws plexus::error(invalid_argument) "WHAT needs COUNT x SIZE bytes of accessor I,
  // whose memory on 'DEVICE' has N bytes" unless count elements of element_size bytes fit
  // native_memory_bytes(accessor) (no overflow: a huge count is refused too). For a native
  // function to check its arguments before it touches memory; `what` names the call ("potrf
  // of tile (0, 0) at step 0 of a 4096 x 4096 matrix").
  void require_memory(std::size_t accessor, std::size_t count, std::size_t element_size,
                      std::string_view what) const;

 private:
  template <class T>
  T checked(const NativeHandle& handle, const char* what) const {
    static_assert(std::is_pointer_v<T> || std::is_integral_v<T>,
                  "native handles are read as pointer or integer types");
    if (!handle.matches<T>()) refuse(handle, typeid(T), what);
    return handle.as<T>();
  }
  [[noreturn]] void refuse(const NativeHandle& handle, const std::type_info& asked,
                           const char* what) const;

  const std::string& task_;
  Device& device_;
  const NativeHandles& handles_;
  const Memory& memory_;
};

}  // namespace plexus
