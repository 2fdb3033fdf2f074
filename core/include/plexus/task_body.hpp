// TaskBody: what a task does, for tasks the application API creates (kernel launches, native
// tasks, host accesses, host tasks with buffer requirements). Implemented by the core; schedulers drive
// it: choose a placement, place() in submission order, then run() (or enqueue()) once the
// dependencies are done. The body knows its buffer requirements and does the memory-model
// bookkeeping, allocations and copies itself, so every scheduler moves data the same way.
//
// Placement: a device, or nullptr for the host (host tasks and host accesses must be placed
// on the host; kernels and native tasks on a device that can_run_on(): for a native task, a
// device whose backend it has an implementation for).
// Thread-safety: place() is called once, from the submitting thread; run() once, from any
// thread, after place() and after every dependency (the task's and place()'s) is done, or
// pending on the same in-order `queue` (enqueue() only: the queue runs them first);
// the const members are safe from any thread. Ownership: shared by the task and scheduler.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "plexus/export.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

class Device;
class DeviceQueue;

// Bytes a task would copy into its placement from one place: host memory (from nullptr) or
// the memory of a device (TaskBody::transfers_in).
struct InboundTransfer {
  Device* from = nullptr;
  std::size_t bytes = 0;
};

class PLEXUS_API TaskBody {
 public:
  TaskBody() = default;
  TaskBody(const TaskBody&) = delete;
  TaskBody& operator=(const TaskBody&) = delete;
  virtual ~TaskBody();

  // "kernel saxpy", "host access", ... for logs and traces.
  virtual const std::string& name() const = 0;
  // True when the body must run on the host (placement nullptr).
  virtual bool runs_on_host() const = 0;
  // The device the submitting queue asked for; nullptr: no preference.
  virtual Device* preferred_device() const = 0;
  virtual bool can_run_on(const Device& device) const = 0;
  // Bytes the memory model would copy if the task were placed there now (cost models).
  virtual std::size_t transfer_bytes(Device* placement) const = 0;
  // For cost models (scheduler/heft): the work-items a kernel launches (its global size),
  // 0 for bodies without a kernel; and the earlier tasks place(placement) would return now,
  // without recording anything. The defaults (0, none) suit bodies without either.
  virtual std::size_t work_items() const { return 0; }
  // transfer_bytes(placement) by where the bytes come from, one entry per source (cost models
  // per pair of locations). The default: all of transfer_bytes from host memory.
  virtual std::vector<InboundTransfer> transfers_in(Device* placement) const {
    const std::size_t bytes = transfer_bytes(placement);
    if (bytes == 0) return {};
    return {InboundTransfer{nullptr, bytes}};
  }
  virtual std::vector<std::shared_ptr<TaskEvent>> preview_dependencies(Device* placement) const {
    (void)placement;
    return {};
  }
  // For schedulers that limit the tasks running at once on a device: how many tasks like
  // this one `device` runs at once, when the body knows better than the scheduler's own rule
  // (a native task that runs on the calling thread, Device::native_work_on_caller: one per
  // compute unit, as StarPU runs one sequential codelet per CPU worker); 0 (the default):
  // the scheduler's rule (e.g. one kernel at a time on a CPU, whose backend spreads it
  // over every thread).
  virtual std::size_t tasks_at_once(const Device& device) const {
    (void)device;
    return 0;
  }

  // Records the body's buffer accesses for `placement` as made by `event`; returns the
  // earlier tasks they depend on (the scheduler waits for them as for explicit ones).
  virtual std::vector<std::shared_ptr<TaskEvent>> place(Device* placement,
                                                        const std::shared_ptr<TaskEvent>& event) = 0;
  // Runs the body where it was placed, on the calling thread until done: allocations,
  // copies, then the work. `queue` is a queue of the placement's device (nullptr for the
  // host). Throws the task's failure.
  virtual void run(DeviceQueue* queue) = 0;
  // Like run(), but may leave the work enqueued on `queue` instead of waiting for it: returns
  // true when the body's last operations are still in `queue` (their end, observed with
  // queue->on_complete, is the task's end; host memory the copies read stays valid until
  // then), false when the body is done already. Called instead of run(), not in addition.
  // The default runs the body and returns false.
  virtual bool enqueue(DeviceQueue* queue) {
    run(queue);
    return false;
  }
};

}  // namespace plexus
