// CommandBody: the core's TaskBody for the application API: a kernel launch, a native task
// (interop.hpp), a host task, or a host access (no work, the buffer made valid on the host).
// Internal to the core.
//
// place() records each requirement in the memory model at the placement's location (with
// `record_as` when given: a host view's release event, so that conflicting work waits for
// the view) and returns the dependencies; run() allocates where the plans say, runs their
// copies (CopyRunner), then launches or runs the host work, and waits for the queue;
// enqueue() does the same for a kernel or a native task without the final wait (copies that
// need the host in the middle, device -> host and staged device -> device, are still waited
// for). A checked kernel (KernelInfo::bounds_checked) always runs to the end (enqueue()
// runs it): its check record is read back and a violation fails the task. A native task runs the implementation of its placement's backend
// (DeviceQueue::enqueue_native); it can run on the devices that have one. A USM command
// (memcpy, fill on device memory) runs on the group's device, to its end, like a kernel
// with pointer arguments, which runs only there; so does a buffer copy between accessors or
// a buffer fill submitted to a queue whose device has memory of its own (the host device's
// run on a host thread, as host tasks do).
// The body is named after `event`, its task's event (its label), which it keeps. It takes
// the group over as the Handler allocated it (no copy, no second allocation); the
// constructor taking a group by value moves it into an allocation of its own.
// Thread-safety and ownership: see task_body.hpp. The runtime outlives every body (it
// waits for all tasks before going).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "command_group.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/task_body.hpp"

namespace plexus::detail {

class KernelCheckBuffer;

class CommandBody final : public TaskBody, private InteropHandle::Memory {
 public:
  CommandBody(RuntimeState& runtime, std::unique_ptr<CommandGroup> group,
              std::shared_ptr<TaskEvent> event, std::shared_ptr<TaskEvent> record_as = nullptr);
  CommandBody(RuntimeState& runtime, CommandGroup group, std::shared_ptr<TaskEvent> event,
              std::shared_ptr<TaskEvent> record_as = nullptr);
  ~CommandBody() override;

  const std::string& name() const override { return event_->label(); }
  bool runs_on_host() const override { return !runs_on_device(); }
  Device* preferred_device() const override { return runs_on_device() ? group_.device : nullptr; }
  bool can_run_on(const Device& device) const override;
  std::size_t transfer_bytes(Device* placement) const override;
  std::vector<InboundTransfer> transfers_in(Device* placement) const override;
  std::size_t work_items() const override;
  std::size_t tasks_at_once(const Device& device) const override;
  std::vector<std::shared_ptr<TaskEvent>> preview_dependencies(Device* placement) const override;

  std::vector<std::shared_ptr<TaskEvent>> place(Device* placement,
                                                const std::shared_ptr<TaskEvent>& event) override;
  void run(DeviceQueue* queue) override;
  bool enqueue(DeviceQueue* queue) override;

 private:
  bool runs_on_device() const {
    return group_.kernel || !group_.natives.empty() || group_.graph ||
           group_.usm.kind != UsmOperation::Kind::none || buffer_command_on_device();
  }
  // A copy between accessors or a fill on a queue whose device has memory of its own: it
  // runs there (device_buffer_command.hpp), not on a host thread.
  bool buffer_command_on_device() const;
  // Kernels with pointer arguments and USM commands run on the group's device only.
  bool bound_to_group_device() const;
  BufferAccess access_at(std::size_t requirement, LocationId location) const;
  // Throws an error naming the scheduler's missing call (place_task, the device queue) when
  // the body cannot run as it is.
  void check_runnable(const DeviceQueue* queue) const;
  // InteropHandle::Memory: a requirement's allocation on the placement, as the device's
  // native handle or as it is.
  std::size_t accessors() const override { return planned_; }
  NativeHandle memory(const BufferStorage* storage, std::size_t requirement) const override;
  void* allocation(std::size_t requirement) const override;
  std::size_t bytes(std::size_t requirement) const override;
  // Allocations and copies of the plans; copies to `queue` are left enqueued there.
  void stage(DeviceQueue* queue);
  // The kernel's launch or the native task's implementation, enqueued on `queue`.
  void start_work(DeviceQueue& queue);
  void launch(DeviceQueue& queue);
  void launch_graph(DeviceQueue& queue);
  // The USM command (group_.usm), run to its end on `queue`.
  void run_usm(DeviceQueue& queue);
  // The kernel arguments of `slots` on the placement (accessors: their allocations).
  void fill_arguments(const ArgumentSlots& slots, std::span<KernelArgument> arguments) const;

  RuntimeState& runtime_;
  std::unique_ptr<CommandGroup> owned_group_;  // never null
  CommandGroup& group_ = *owned_group_;
  std::shared_ptr<TaskEvent> event_;
  std::shared_ptr<TaskEvent> record_as_;
  std::shared_ptr<DeviceModule> module_;  // kernels: loaded on the placement
  std::vector<std::shared_ptr<DeviceModule>> graph_modules_;  // a graph's, by kernel
  // A checked kernel's record, from its launch until run() verifies it.
  std::unique_ptr<KernelCheckBuffer> checks_;
  Device* placement_ = nullptr;
  bool placed_ = false;  // place() was called
  LocationId location_ = host_location;
  // The plans by requirement (their dependencies went to place()): the first in place, as
  // most commands access one buffer, the others after it; planned_ of them so far.
  AccessPlan first_plan_;
  std::vector<AccessPlan> more_plans_;
  std::size_t planned_ = 0;
};

}  // namespace plexus::detail
