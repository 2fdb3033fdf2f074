// Handler: the command group being built inside Queue::submit. One command per group: a
// kernel launch (parallel_for), a host task, a native task (interop.hpp), a USM command
// (memcpy, memset, fill, copy: usm.hpp) or a buffer command (copy, fill, update_host on
// accessors), plus its buffer accesses and dependencies.
//
//   q.submit([&](plexus::Handler& h) {
//     auto x = bx.access(h, plexus::read);                 // Accessor (accessor.hpp)
//     h.depends_on(earlier_event);
//     h.parallel_for(kernel, plexus::Range{n}, 2.0f, x, y_acc, plexus::local<float>(64));
//   });
//   q.submit([&](plexus::Handler& h) {
//     auto y = by.access(h, plexus::read);
//     h.host_task([=] { use(y.data()); });                // runs on a host thread
//   });
//
// Kernel arguments, in the kernel's order: accessors (pointer parameters), values of any
// trivially copyable type (scalar parameters; the size must match), plexus::local<T>(n)
// (__local pointer parameters), plexus::GraphParameter<T> (a scalar that command graphs
// replay with its current value: graph.hpp), USM pointers (usm.hpp: any address inside an
// allocation of the queue's device, or host/shared memory on a device that shares host
// memory) and pointers from Buffer::device_pointer (pointer parameters, synchronised by
// the user; a pointer that is neither, or of another device, is invalid_argument). A kernel
// with pointer arguments runs on the queue's device. They are checked against the kernel's KernelInfo when
// parallel_for is called: plexus::error(invalid_argument) naming the kernel, the argument
// and what was expected. A read accessor for a parameter the kernel stores through
// (KernelArgInfo::written) is logged as a warning, once per kernel and argument. Thread-safety: a handler is used by one thread, inside submit().
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <memory>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "plexus/buffer_handle.hpp"
#include "plexus/event.hpp"
#include "plexus/export.hpp"
#include "plexus/graph_parameter.hpp"
#include "plexus/interop.hpp"
#include "plexus/kernel_bundle.hpp"
#include "plexus/nd_range.hpp"
#include "plexus/range.hpp"

namespace plexus {

template <class T, int Dims>
class Accessor;

namespace detail {
struct CommandGroup;
class QueueState;
}  // namespace detail

// Work-group local memory for a __local pointer argument: `bytes` per work-group.
struct LocalMemory {
  std::size_t bytes = 0;
};
template <class T>
LocalMemory local(std::size_t count) {
  return LocalMemory{sizeof(T) * count};
}
// The work-group scratch memory of a SYCL kernel that calls
// sycl::ext::oneapi::experimental::get_work_group_scratch_memory() (DPC++'s launch property
// work_group_scratch_size): `bytes` per work-group, passed as the kernel's last argument
// (the hidden __local parameter 'work_group_scratch_size' the compiler gives such a kernel).
inline LocalMemory work_group_scratch_size(std::size_t bytes) { return LocalMemory{bytes}; }

class PLEXUS_API Handler {
 public:
  Handler(const Handler&) = delete;
  Handler& operator=(const Handler&) = delete;
  ~Handler();

  template <class... Args>
  void parallel_for(const Kernel& kernel, const NdRange& range, const Args&... args) {
    begin_kernel(kernel, range);
    (add_argument(args), ...);
    end_kernel();
  }
  template <int Dims, class... Args>
  void parallel_for(const Kernel& kernel, const Range<Dims>& range, const Args&... args) {
    parallel_for(kernel, nd_range(range), args...);
  }

  // Runs `work` on a host thread once the group's accesses are valid on the host.
  template <class Work>
  void host_task(Work&& work) {
    set_host_task(std::function<void()>(std::forward<Work>(work)));
  }

  // A native task (interop.hpp): one implementation per backend, e.g.
  //   h.native_task("potrf", {{"cuda", [=](plexus::InteropHandle& ih) {...}},
  //                           {"host", [=](plexus::InteropHandle& ih) {...}}});
  // `name` names the task in traces and errors and keys scheduler/heft's measurements. The
  // task runs on a device whose Device::native_backend() has an implementation: on a queue
  // made for a device (Runtime::queue(device)) that device, which must have one; on the
  // default queue (Runtime::queue()) its device if it has one, else the first device that
  // does. Otherwise plexus::error(unsupported) here, naming the task, the device's backend
  // and the implementations offered; an empty name, no implementations, an empty callable
  // or two for one backend are invalid_argument. scheduler/heft chooses among every device
  // with an implementation (unless respect_queue_device). On a device of another process
  // (Device::runs_native_closures() false: the mpi backend's) only an implementation made
  // from a registered native function (native_function.hpp) counts.
  void native_task(std::string name, std::vector<NativeImplementation> implementations);

  // USM commands (usm.hpp), each the group's one command. Pointers are USM of the queue's
  // device (any address inside an allocation), USM host or shared memory, or plain host
  // memory; a range that runs past its allocation's end, a device allocation of another
  // device or a null pointer: plexus::error(invalid_argument), naming the command. A copy
  // between memory the host reaches runs on a host thread, the others on the queue's
  // device. Ordered only by depends_on and an in-order queue (no tracking, as in SYCL).
  // memcpy: `bytes` from `source` to `destination` (0 bytes: nothing to do).
  void memcpy(void* destination, const void* source, std::size_t bytes);
  // memset: `bytes` bytes set to (unsigned char)value.
  void memset(void* pointer, int value, std::size_t bytes);
  // fill: `count` elements of T at `pointer` set to `pattern`.
  template <class T>
  void fill(void* pointer, const T& pattern, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>, "fill patterns must be trivially copyable");
    fill_usm(pointer, &pattern, sizeof(T), count);
  }
  // copy: `count` elements of T (SYCL's argument order: source first).
  template <class T>
  void copy(const T* source, T* destination, std::size_t count) {
    memcpy(destination, source, count * sizeof(T));
  }

  // Buffer commands (SYCL's handler::copy, fill and update_host), each the group's one
  // command, on accessors made in this group. They run on a host thread once the
  // accessors' ranges are valid on the host (the memory model moves the data there, as for
  // a host task); what they write is then valid on the host only. Elements go in row-major
  // order of the accessor's range (last dimension fastest).
  //   copy(accessor, pointer): the range's elements into `destination`, contiguous;
  //   copy(pointer, accessor): `source`'s elements into the range;
  //   copy(accessor, accessor): element by element, the destination's range at least as
  //     large as the source's;
  //   fill(accessor, value): every element of the range;
  //   update_host(accessor): only makes the range valid on the host.
  // Errors (invalid_argument, naming the command): an accessor of another group, a source
  // accessor in discard_write mode (its contents are undefined) or a destination in read
  // mode, a null pointer, a destination range smaller than the source's.
  template <class T, int Dims>
  void copy(const Accessor<T, Dims>& source, T* destination) {
    copy_buffer(source.handler(), source.requirement_index(), nullptr, 0, destination, nullptr);
  }
  template <class T, int Dims>
  void copy(const T* source, const Accessor<T, Dims>& destination) {
    copy_buffer(nullptr, 0, destination.handler(), destination.requirement_index(), nullptr,
                source);
  }
  template <class T, int SourceDims, int DestinationDims>
  void copy(const Accessor<T, SourceDims>& source, const Accessor<T, DestinationDims>& destination) {
    copy_buffer(source.handler(), source.requirement_index(), destination.handler(),
                destination.requirement_index(), nullptr, nullptr);
  }
  template <class T, int Dims>
  void fill(const Accessor<T, Dims>& destination, const std::type_identity_t<T>& value) {
    fill_buffer(destination.handler(), destination.requirement_index(), &value, sizeof(T));
  }
  template <class T, int Dims>
  void update_host(const Accessor<T, Dims>& accessor) {
    update_host(accessor.handler(), accessor.requirement_index());
  }

  void depends_on(const Event& event);

  // Used by Accessor: registers an access; returns its index in this group.
  std::size_t add_requirement(const Requirement& requirement);

 private:
  friend class Queue;
  explicit Handler(std::unique_ptr<detail::CommandGroup> group);

  void begin_kernel(const Kernel& kernel, const NdRange& range);
  void end_kernel();
  void set_host_task(std::function<void()> work);
  void add_accessor(const Handler* owner, std::size_t requirement);
  void add_scalar(const void* value, std::size_t size, const char* type_name);
  void add_local(std::size_t bytes);
  void add_pointer(void* pointer);
  void fill_usm(void* pointer, const void* pattern, std::size_t pattern_size, std::size_t count);
  // Buffer commands (handler_buffer_commands.cpp): requirement indices of this group's
  // accessors (owner: the accessor's handler); a null owner means the host pointer instead.
  void copy_buffer(const Handler* source_owner, std::size_t source,
                   const Handler* destination_owner, std::size_t destination,
                   void* host_destination, const void* host_source);
  void fill_buffer(const Handler* owner, std::size_t requirement, const void* value,
                   std::size_t size);
  void update_host(const Handler* owner, std::size_t requirement);
  // Throws invalid_argument when the group already holds a command (`what` is the new one).
  void check_no_command(const std::string& what) const;
  void add_parameter(const std::shared_ptr<detail::ParameterValue>& value, std::size_t size,
                     const char* type_name);

  template <class T, int Dims>
  void add_argument(const Accessor<T, Dims>& accessor) {
    add_accessor(accessor.handler(), accessor.requirement_index());
  }
  void add_argument(const LocalMemory& memory) { add_local(memory.bytes); }
  template <class T>
  void add_argument(const GraphParameter<T>& parameter) {
    add_parameter(parameter.cell(), sizeof(T), typeid(T).name());
  }
  // A USM pointer or one from Buffer::device_pointer for a pointer parameter.
  template <class T>
  void add_argument(T* const& pointer) {
    add_pointer(const_cast<std::remove_cv_t<T>*>(pointer));
  }
  template <class T>
  void add_argument(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "kernel scalar arguments must be trivially copyable");
    add_scalar(&value, sizeof(T), typeid(T).name());
  }

  std::unique_ptr<detail::CommandGroup> group_;
};

}  // namespace plexus
