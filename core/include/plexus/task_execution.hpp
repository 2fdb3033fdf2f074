// Helpers every scheduler needs to run tasks: the mechanism, not a policy (when and where a
// task runs stays the scheduler's choice).
// Thread-safety: the free functions may be called from any thread; they block on the task's
// dependencies. DeviceQueues is not thread-safe: one per worker thread.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "plexus/device_queue.hpp"
#include "plexus/export.hpp"
#include "plexus/task.hpp"

namespace plexus {

class Device;

// Waits for the dependencies, in order, until one has failed: its failure (not observed by
// this wait), or nullptr once all are done. A dependency that can never end (a host view
// held by a thread that waits for this task) is a failure: plexus::error(invalid_argument)
// saying so. A scheduler that fails the task with a dependency's failure (the dependency
// whose TaskEvent::failure() it is) carries it on with TaskEvent::fail_with_failure_of, as
// run_task_now() and start_task() do: mark_failed would make it a second failure.
PLEXUS_API std::exception_ptr wait_for_dependencies(const Task& task);

// The task whose body or host work run_task_now()/start_task() is running on this thread
// (nullptr outside them): a backend that runs a launch on the calling thread reads it
// before the launch and checks its cancel_requested() between work-groups (the host
// backend does; TaskEvent::cancel); a backend whose launch runs on after it returns
// registers TaskEvent::on_cancel instead (the opencl backend, for cancellable kernels).
PLEXUS_API const TaskEvent* current_task();

// The placement a scheduler without a policy of its own uses: the host for host bodies, the
// body's preferred device, else `fallback` (the first device, or nullptr for the host).
PLEXUS_API Device* default_placement(const TaskBody& body, Device* fallback);

// Places the task's body (if any) at `placement` and appends the dependencies it found to
// task.dependencies (those not there already). Call once per task, in submission order, before the task can run.
// Throws invalid_argument when the body cannot run there.
PLEXUS_API void place_task(Task& task, Device* placement);

// Runs the task on this thread now: waits for its dependencies (a failed dependency fails
// the task with the same failure, without running it; so does a cancel() before it
// starts: plexus::error(cancelled)), marks it running, runs host_work or
// the body (with `queue`, the placement's queue, nullptr for the host; nothing for a join,
// task.hpp), and completes or fails its event. The task's own failures go to its event, not to the caller.
PLEXUS_API void run_task_now(Task& task, DeviceQueue* queue = nullptr);

// Starts the task on this thread without waiting for its device work where it can: waits
// for its dependencies except those still pending on `queue` itself (an in-order queue runs
// them first) and those pending on another queue that `queue` can order behind on the
// device (DeviceQueue::orders_by_markers: it waits until that work is enqueued, takes a
// marker behind it, TaskEvent::request_marker/wait_marker, or, enqueued already, marks its
// queue from this thread, DeviceQueue::mark_from_any_thread, and has `queue` wait for it),
// marks it running, and lets the body enqueue its work on `queue`
// (TaskBody::enqueue). When work is left in the queue, the event records `queue` as the one
// it is pending on (TaskEvent::enqueued records a marker behind it when a task on another
// queue asked for one) and is completed (or failed, with the queue's failure or that of a
// dependency it did not wait for) from queue->on_complete, on whichever thread that calls
// back; otherwise it is done on return, as with run_task_now (host work, host bodies,
// `queue` nullptr). The caller must keep `queue` alive until the event is done and may use
// it for later tasks at once (one thread at a time, as always). The completion may take
// task.body and task.dependencies over (moved from); task.event stays.
PLEXUS_API void start_task(Task& task, DeviceQueue* queue);

// Whether every event in `dependencies` is done (failed ones included; nullptr entries count
// as done), now.
PLEXUS_API bool all_done(const std::vector<std::shared_ptr<TaskEvent>>& dependencies);

// Calls `ready` exactly once when every event in `dependencies` is done (failed ones
// included; nullptr entries count as done): on the thread that completes the last of them,
// or on this thread before returning when all are done already. `ready` must not throw.
PLEXUS_API void when_done(const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                          std::function<void()> ready);

// One DeviceQueue per device, created on first use.
class PLEXUS_API DeviceQueues {
 public:
  DeviceQueue* for_device(Device* device);  // nullptr for nullptr (the host)

 private:
  std::unordered_map<Device*, std::unique_ptr<DeviceQueue>> queues_;
};

}  // namespace plexus
