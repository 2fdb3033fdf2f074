// DeviceQueue: an in-order stream of operations on one device (an OpenCL command queue, a
// CUDA stream, the host's thread pool). Operations are enqueued and run asynchronously, one
// after another in enqueue order; wait() or on_complete() observe their end.
//
// Copies move bytes between a device allocation of this device and host memory laid out
// the same way (CopyLayout describes both sides: a buffer has the same layout at every
// location). Allocations are what Device::allocate returned, plus byte offsets. A copy
// reads or writes its host memory when it runs, not when it is enqueued: that memory must
// stay valid, and a copy's source unchanged, until wait() or an on_complete() enqueued
// after the copy has observed its end (like clEnqueueWriteBuffer without blocking; a
// remote device reads the source as its data leaves).
//
// Errors: bad arguments found at enqueue time throw plexus::error(invalid_argument) at once;
// failures while running (a driver error, a faulting kernel) make every later operation
// fail and surface from wait()/on_complete() as plexus::error(device). After a failure the
// queue stays failed until wait() or on_complete() has reported it: each takes over the
// reporting of the operations enqueued before it, so a failure is reported once, and
// operations enqueued after that call run normally again.
//
// Device timing (opt-in, for tracing): after enable_timing(), the queue records when its
// operations start and end on the device's own clock (OpenCL profiling, CUDA timing
// events; host times on the host backend), converted to the host's steady clock, and
// take_timing() hands them out. A queue whose timing is off records nothing extra: no
// events, no locks, one branch per operation.
//
// Ordering across queues (mark, wait_for): a queue may record a marker after the operations
// enqueued so far, and another queue of the same device may make its later operations wait
// for that marker on the device (CUDA: an event and cuStreamWaitEvent; OpenCL: a marker
// and a barrier with a wait list), so that tasks on different queues of one device run
// concurrently and still in dependency order, without the host waiting in between. A queue
// that cannot (the host backend, whose operations finish before they return; the
// defaults) returns nullptr / false, and the caller waits on the host instead.
//
// Thread-safety: one thread at a time per queue (the scheduler gives each worker its own),
// except mark_from_any_thread(); different queues of one device may be used concurrently. Ownership: created by
// Device::create_queue(), must not outlive its device; the destructor waits for the queue's
// operations and for its on_complete() callbacks to have returned (a callback that runs on
// holds the caller's captures past the queue, the runtime and the backend's library).
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "plexus/device_graph.hpp"
#include "plexus/device_module.hpp"
#include "plexus/export.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/native_call.hpp"
#include "plexus/native_handle.hpp"
#include "plexus/nd_range.hpp"

namespace plexus {

class Device;

// When device work ran, on the host's steady clock (the clock of TaskEvent).
struct DeviceTimes {
  std::chrono::steady_clock::time_point start, end;
};

// The timing of some operations of a queue with timing on (DeviceQueue::take_timing).
// Thread-safety: times() from any thread. Ownership: may outlive its queue, not its device.
class PLEXUS_API OperationTiming {
 public:
  OperationTiming() = default;
  OperationTiming(const OperationTiming&) = delete;
  OperationTiming& operator=(const OperationTiming&) = delete;
  virtual ~OperationTiming();

  // The device start of the first operation and the device end of the last, aligned to the
  // host clock (alignment error: see each backend's README; usually below a few
  // microseconds). std::nullopt when the device recorded no times (an operation failed or
  // was skipped). Call only once the operations have finished: after the queue's wait(),
  // or in (or after) an on_complete() callback enqueued after them.
  virtual std::optional<DeviceTimes> times() const = 0;
};

// A rectangular region of up to three dimensions, in bytes: `slices` planes of `rows` rows
// of `row_bytes` contiguous bytes, starting `offset` bytes into the allocation; rows are
// `row_pitch` apart and planes `slice_pitch` apart. A contiguous copy has rows = slices = 1.
struct CopyLayout {
  std::size_t offset = 0;
  std::size_t row_bytes = 0;
  std::size_t rows = 1;
  std::size_t slices = 1;
  std::size_t row_pitch = 0;    // >= row_bytes when rows > 1
  std::size_t slice_pitch = 0;  // >= rows * row_pitch when slices > 1

  std::size_t bytes() const { return row_bytes * rows * slices; }
  static CopyLayout contiguous(std::size_t offset, std::size_t bytes) {
    return {offset, bytes, 1, 1, bytes, bytes};
  }
};

// A point in one queue's order, made by DeviceQueue::mark(): reached once every operation
// enqueued on that queue before it has finished (failed ones included). Only the backend
// that made it reads it. Thread-safety: immutable once made; may be shared by any threads.
// Ownership: shared; must not outlive its device.
class PLEXUS_API QueueMarker {
 public:
  QueueMarker() = default;
  QueueMarker(const QueueMarker&) = delete;
  QueueMarker& operator=(const QueueMarker&) = delete;
  virtual ~QueueMarker();
};

class PLEXUS_API DeviceQueue {
 public:
  DeviceQueue() = default;
  DeviceQueue(const DeviceQueue&) = delete;
  DeviceQueue& operator=(const DeviceQueue&) = delete;
  virtual ~DeviceQueue();

  // host memory (base address of the host copy) -> device allocation, the region `layout`.
  virtual void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) = 0;
  // device allocation -> host memory (base address of the host copy).
  virtual void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) = 0;
  // Device -> device without host memory: copies the region `layout` of `source_allocation`
  // (an allocation of `source`: another device, or this queue's own) into the same region
  // of `allocation` (of this queue's device), in this queue's order. Returns false and
  // enqueues nothing when this queue has no direct path from `source` (another backend,
  // OpenCL devices in different contexts, the default): the caller then stages the copy
  // through host memory. The source data must be ready when this is called (nothing orders
  // the copy after work on `source`'s queues) and stay unchanged until this queue's wait()
  // or on_complete() reports the copy done. Bad arguments: invalid_argument, as for the
  // other copies.
  virtual bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                                const CopyLayout& layout);
  // USM (Device::allocate_usm), optional like the allocation kinds: usm_copy copies `bytes`
  // from `source` to `destination`, each a USM address of this queue's device (an
  // allocation's start or inside it) or host memory, in this queue's order (host memory
  // must stay valid until wait() or on_complete() reports the copy done). usm_fill writes
  // `pattern` (`pattern_size` bytes) repeatedly over `bytes` (a multiple of pattern_size)
  // at `destination`, a USM address of this device; it returns false, enqueueing nothing,
  // when the backend cannot fill with that pattern size or alignment natively (the caller
  // then copies a filled host block). Defaults: usm_copy throws plexus::error(unsupported),
  // usm_fill returns false. Bad arguments: invalid_argument.
  virtual void usm_copy(void* destination, const void* source, std::size_t bytes);
  virtual bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                        std::size_t bytes) {
    (void)destination, (void)pattern, (void)pattern_size, (void)bytes;
    return false;
  }
  // Buffer commands on the device (Handler::copy between two accessors, Handler::fill on
  // one), optional: copy_within copies `bytes` contiguous bytes from `source_offset` in
  // `source_allocation` to `offset` in `allocation` (allocations of this queue's device,
  // possibly the same one; the two byte ranges do not overlap); fill_within writes `pattern`
  // (`pattern_size` bytes) repeatedly over `bytes` (a multiple of pattern_size) at `offset`
  // in `allocation` (offset a multiple of pattern_size). In this queue's order. Each returns
  // false, enqueueing nothing, when the backend has no device operation for it (the
  // default; a pattern size its driver cannot fill with): the caller then goes through host
  // memory (copy_to_host, copy_to_device). Bad arguments: invalid_argument.
  virtual bool copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                           std::size_t source_offset, std::size_t bytes) {
    (void)allocation, (void)offset, (void)source_allocation, (void)source_offset, (void)bytes;
    return false;
  }
  virtual bool fill_within(void* allocation, std::size_t offset, const void* pattern,
                           std::size_t pattern_size, std::size_t bytes) {
    (void)allocation, (void)offset, (void)pattern, (void)pattern_size, (void)bytes;
    return false;
  }
  // copy_within and fill_within for a backend whose allocations are device addresses (USM
  // device memory: CUDA, HIP, Level Zero, the host): usm_copy and usm_fill at
  // allocation + offset. A backend overrides copy_within/fill_within with these.
  bool copy_within_as_usm(void* allocation, std::size_t offset, const void* source_allocation,
                          std::size_t source_offset, std::size_t bytes);
  bool fill_within_as_usm(void* allocation, std::size_t offset, const void* pattern,
                          std::size_t pattern_size, std::size_t bytes);
  // Launches `kernel` (loaded for this queue's device) over `range`. The arguments' values
  // are copied before launch() returns. Throws invalid_argument when the arguments do not
  // match the kernel (count, kinds, scalar sizes) or the range does not suit it.
  virtual void launch(const DeviceKernel& kernel, const NdRange& range,
                      std::span<const KernelArgument> arguments) = 0;

  // Device graphs (device_graph.hpp), optional. record_graph: a replayable form of
  // `launches` (run in order, each after the previous), checked as launch() checks each
  // (invalid_argument), enqueueing nothing; nullptr when this queue has no such capability
  // (the default): the caller launches them one by one instead. launch_graph: enqueues the
  // launches of `graph` (recorded by this queue) with the argument values of `launches`
  // (the same kernels, ranges and argument kinds as recorded), as one operation that
  // fails as the launches would; the default throws plexus::error(unsupported).
  virtual std::unique_ptr<DeviceGraph> record_graph(std::span<const GraphLaunch> launches) {
    (void)launches;
    return nullptr;
  }
  virtual void launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches);

  // Native tasks (interop.hpp). native_handles(): this queue's native objects (its backend's
  // name, context, queue, device); the default throws plexus::error(unsupported).
  // enqueue_native(): calls `work` with them, on the calling thread before returning, so that
  // what `work` enqueues on the native queue runs after every operation enqueued here before
  // and before every operation enqueued after (its end is then observed with wait() or
  // on_complete(), like any operation's). On a queue whose operations run on the calling
  // thread (the host backend) `work` is the work itself. An exception from `work` propagates
  // to the caller and is not kept as the queue's failure. The default calls `work` with
  // native_handles(): right for a backend that issues every operation to its native queue
  // from the calling thread, in order; a backend that defers operations (the CUDA launch
  // thread) issues them first.
  virtual NativeHandles native_handles();
  virtual void enqueue_native(const std::function<void(const NativeHandles&)>& work) {
    work(native_handles());
  }
  // For a device of another process (Device::runs_native_closures() false): enqueues a call
  // of the registered native function `call` (native_function.hpp) for the native task
  // `task`, run in that process on its device, in this queue's order, with `allocations[i]`
  // (allocations of this queue's device, or nullptr) as the memory of the task's accessor i.
  // Returns at once: the function's failure there (not registered there, its error code,
  // its exception) becomes this queue's failure, reported by wait()/on_complete() as
  // plexus::error naming the task, the function and where it ran. Bad arguments (an
  // allocation of another device): invalid_argument. The default throws
  // plexus::error(unsupported): a device of this process runs the implementation's closure
  // through enqueue_native() instead.
  virtual void enqueue_native_call(const std::string& task, const NativeCall& call,
                                   std::span<void* const> allocations);

  // Blocks until every operation enqueued so far has finished; rethrows a failure.
  virtual void wait() = 0;
  // Calls `done` once every operation enqueued so far has finished, with the failure or
  // nullptr, on any thread (possibly this one, before returning). `done` must not throw.
  virtual void on_complete(std::function<void(std::exception_ptr)> done) = 0;

  // True when this queue can order its operations behind markers of other queues of its
  // device (wait_for); false (the default) when it cannot.
  virtual bool orders_by_markers() const { return false; }
  // Records a marker after every operation enqueued so far; nullptr when this queue cannot
  // (the default). Enqueues nothing else; costs one driver call where it can.
  virtual std::shared_ptr<const QueueMarker> mark() { return nullptr; }
  // mark() for another thread than the one using the queue, concurrently with it: the
  // marker follows at least every operation whose enqueue call returned before this call
  // began (a task seen enqueued, TaskEvent::enqueued, is behind it). nullptr when the queue
  // cannot (the default): the caller then waits on the host. This is how a task forked off
  // a dependency that was enqueued before anyone asked for a marker still runs on another
  // queue without the host waiting.
  virtual std::shared_ptr<const QueueMarker> mark_from_any_thread() { return nullptr; }
  // Makes the operations enqueued on this queue from now on start only once `marker` (of
  // another queue of this device, or of this one) is reached, on the device: the caller
  // does not block. Returns false, enqueueing nothing, when this queue cannot order behind
  // it (another device or backend, or no support: the default); the caller then waits on
  // the host. A failure of the operations before the marker is reported by their own queue
  // (it may fail this queue's later operations too: OpenCL).
  virtual bool wait_for(const QueueMarker& marker) {
    (void)marker;
    return false;
  }

  // Turns device timing on for the operations enqueued from now on (it stays on); true when
  // this queue can time them, false (nothing changes) when it cannot: the default.
  virtual bool enable_timing() { return false; }
  // With timing on: the timing of the operations enqueued since enable_timing() or the
  // previous take_timing(), which starts a new span; nullptr when timing is off or no
  // operation was enqueued since.
  virtual std::shared_ptr<const OperationTiming> take_timing() { return nullptr; }
};

}  // namespace plexus
