// OpenclQueue: a DeviceQueue over one in-order cl_command_queue (profiling enabled).
//
// Copies: contiguous layouts use clEnqueueRead/WriteBuffer, 2D/3D layouts the *Rect
// variants (one 2D copy per slice when slice_pitch is not a multiple of row_pitch). Host
// memory must stay valid until wait() or on_complete() (copies are non-blocking).
// Launches: arguments checked by plexus::validate_launch, set with clSetKernelArg under the
// kernel's launch mutex (allocations pass the cl_mem, local arguments size + nullptr). A
// non-zero global offset on a PTX module is plexus::error(unsupported): libclc reads none.
// A cancellable kernel (KernelInfo::cancellable) gets its cancel cell as the last argument:
// a cell of its own (CancelCells) when the launch is a task's (current_task()), whose
// TaskEvent::cancel sets it (on_cancel), else the device's never-cancelled cell (command
// buffer nodes too). Once the launch has finished, work-groups that skipped themselves
// make it fail with plexus::error(cancelled) naming the kernel (as any failure: wait() or
// the on_complete callback reports it, and the queue runs nothing more until then).
// Failures: each enqueued command's event is kept until it completes; a command that ends
// with a negative status fails the queue: later commands are not enqueued, and wait() (or
// an on_complete callback) reports plexus::error(device) naming the command and the CL
// error. on_complete takes over the commands in flight and a failure not yet reported (the
// queue runs later commands again); a marker reports it from the driver's callback thread,
// one marker in flight per queue for the on_complete calls made meanwhile
// (OpenclCompletions).
// Markers (mark, wait_for; opencl_marker.hpp): a marker command, flushed; another queue of
// the same device waits for it with a barrier whose wait list holds its event (markers of
// other devices: false, the caller waits on the host). A failure before the marker also
// fails the waiting queue's barrier (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST).
// Timing (enable_timing): the commands' profiling times, aligned to the host clock by
// OpenclTiming; while off, nothing but one branch per command.
//
// Ownership: created by OpenclDevice::create_queue(), must not outlive the device; the
// destructor waits for the commands and for the on_complete callbacks to have returned
// (OpenclCompletions), so it must not run inside one of this queue's callbacks.
// Thread-safety: one thread at a time (DeviceQueue's contract).
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "opencl_api.hpp"
#include "opencl_completions.hpp"
#include "opencl_handle.hpp"
#include "opencl_timing.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::opencl {

class OpenclDevice;
class OpenclGraph;
class OpenclKernel;

class OpenclQueue final : public DeviceQueue {
 public:
  // Throws plexus::error(device) when the driver cannot create the command queue.
  explicit OpenclQueue(OpenclDevice& device);
  ~OpenclQueue() override;

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  // From an OpenCL device sharing this device's context (OpenclDevice::shares_context_with;
  // this device included): clEnqueueCopyBuffer, or clEnqueueCopyBufferRect for 2D/3D
  // layouts; false for other devices. In opencl_device_copies.cpp.
  bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                        const CopyLayout& layout) override;
  // USM: clEnqueueSVMMemcpy; clEnqueueSVMMemFill for patterns of 1, 2, 4, ... 128 bytes at
  // an address aligned to them (false otherwise). In opencl_usm.cpp.
  void usm_copy(void* destination, const void* source, std::size_t bytes) override;
  bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                std::size_t bytes) override;
  // Buffer commands: clEnqueueCopyBuffer, and clEnqueueFillBuffer for patterns of 1, 2, 4,
  // ... 128 bytes (false otherwise). In opencl_device_copies.cpp.
  bool copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                   std::size_t source_offset, std::size_t bytes) override;
  bool fill_within(void* allocation, std::size_t offset, const void* pattern,
                   std::size_t pattern_size, std::size_t bytes) override;
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  // Device graphs over cl_khr_command_buffer where the device offers it (opencl_graph.hpp);
  // nullptr elsewhere (the runtime launches one by one).
  std::unique_ptr<DeviceGraph> record_graph(std::span<const GraphLaunch> launches) override;
  void launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) override;
  // Native tasks: the device's cl_context, this cl_command_queue and the cl_device_id.
  // enqueue_native() calls the work on the calling thread (the commands it enqueues follow
  // this queue's earlier ones in order), skipped while a failure is kept; with timing on, a
  // marker before and after give the work's device times. In opencl_queue.cpp.
  NativeHandles native_handles() override;
  void enqueue_native(const std::function<void(const NativeHandles&)>& work) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;
  bool orders_by_markers() const override { return true; }
  std::shared_ptr<const QueueMarker> mark() override;
  // mark() touches only the OpenCL queue, whose calls are thread-safe.
  std::shared_ptr<const QueueMarker> mark_from_any_thread() override { return mark(); }
  bool wait_for(const QueueMarker& marker) override;
  // False when the device gives no device time to align with (see OpenclTiming).
  bool enable_timing() override;
  std::shared_ptr<const OperationTiming> take_timing() override;

  // A command in flight: its event and what it was, for error messages.
  using Pending = OpenclCompletions::Pending;

 private:
  void copy(bool to_device, void* host, cl_mem memory, const CopyLayout& layout);
  // The launch's kernel as this device loaded it, the launch validated (throws as launch).
  // Errors name `node` (a graph's node), else the launch (OpenclKernel::launch_what).
  const OpenclKernel& checked_kernel(const DeviceKernel& kernel, const NdRange& range,
                                     std::span<const KernelArgument> arguments,
                                     const std::string* node = nullptr) const;
  // clSetKernelArg on `handle` (the kernel's, under its launch mutex, or a clone of it) for
  // each argument (on the kernel's own handle, only for those that changed since it was
  // last launched: OpenclKernel::argument_changed), then a cancellable kernel's cancel
  // cell: `cancel`, or the device's never-cancelled cell when nullptr.
  void set_arguments(const OpenclKernel& kernel, cl_kernel handle,
                     std::span<const KernelArgument> arguments, const std::string& what,
                     const CancelCells::Cell* cancel = nullptr) const;
  // Records `launches` into a new command buffer that `graph` holds from now on.
  void record(OpenclGraph& graph, std::span<const GraphLaunch> launches);
  // Keeps `event` until it completes; drops completed commands, recording a failure.
  // `cancel`: a cancellable launch's own cell (Pending::cancel).
  void track(cl_event event, std::shared_ptr<const std::string> what,
             std::shared_ptr<CancelCells::Cell> cancel = nullptr);
  void track(cl_event event, const std::string& what);
  void collect_finished();
  // Throws plexus::error(device) for `call` when code != CL_SUCCESS; invalid_argument for
  // the codes that mean a bad launch (work-group sizes).
  void check(cl_int code, const std::string& call, const std::string& what) const;

  OpenclDevice& device_;
  QueueHandle queue_;
  std::vector<Pending> pending_;
  std::unique_ptr<OpenclCompletions> completions_;  // on_complete callbacks (their markers)
  CommandFailure failure_;       // the first failure not yet reported by wait(); empty: none
  std::unique_ptr<OpenclTiming> timing_;  // nullptr: timing off
  bool no_timing_ = false;                // enable_timing() found the device cannot
};

}  // namespace plexus::opencl
