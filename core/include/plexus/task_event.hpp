// TaskEvent: the completion state of one task, shared by the submitter, the scheduler
// and any task that depends on it. Implemented in the core.
//
// A scheduler moves an event to running, then to complete or failed, exactly once; it may
// also fail (or complete) an event that never ran, e.g. when a dependency failed.
// Thread-safety: every member is safe from any thread; wait() spins up to 100 us (a short
// task ends sooner than a sleeping thread wakes), then blocks.
// Failures are observed: wait() and wait_for() that rethrow a failure mark it observed. A
// task that fails because a dependency failed carries the dependency's failure on
// (fail_with_failure_of): one failure for both, observed when a wait rethrows it from
// either event, so that a program that sees it through the last task of a chain has seen it.
// An event given a failure sink (the runtime's: Runtime reports failures nobody observed,
// see runtime.hpp) hands its failure to it when it fails; a carried failure is handed once,
// by the event where it arose. wait_done(), wait_done_for() and failure() wait and read
// without observing: for schedulers and the core, which wait on the user's behalf.
// Cancellation is cooperative: cancel() asks; a task not yet started fails with
// plexus::error(cancelled) instead of running, and a backend that runs a launch on the
// calling thread (the host backend) checks cancel_requested() of current_task()
// (task_execution.hpp) between work-groups; a backend whose launch runs on after it
// returns registers on_cancel() for current_task() (the opencl backend sets the cancel
// cell of a cancellable kernel, kernel_cancel.hpp).
// Ownership: shared (std::shared_ptr); callbacks run on the thread that completes the
// event, outside the event's lock, and must not throw.
// Pending queue: a scheduler that enqueues a task's device work without waiting for it
// (task_execution.hpp, start_task) records the in-order DeviceQueue the work went to, so
// that a later task on the same queue can be enqueued behind it without waiting. Only
// meaningful while the event is not done; nullptr: not pending on any queue.
// Marker (ordering across queues of one device, start_task): a task about to be enqueued on
// another queue asks for a marker behind this task's work (request_marker) and waits until
// the task's starter has recorded it (wait_marker), then orders its queue behind it on the
// device (DeviceQueue::wait_for) instead of waiting for this event on the host. The starter
// calls enqueued(queue) once the work is in `queue`: it records the marker when one was
// asked for before (one driver call), and nothing otherwise; a dependent that comes later
// marks the queue itself (DeviceQueue::mark_from_any_thread, task_execution).
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "plexus/export.hpp"

namespace plexus {

class DeviceQueue;
class QueueMarker;
namespace detail {
class FailureSink;
}

enum class TaskStatus { submitted, running, complete, failed };

class PLEXUS_API TaskEvent {
 public:
  using clock = std::chrono::steady_clock;

  explicit TaskEvent(std::string label = {});
  ~TaskEvent();
  // A new event as std::make_shared would make it, in one allocation with its state (the
  // per-submission path's way: one allocation fewer than make_shared).
  static std::shared_ptr<TaskEvent> make(std::string label = {});
  TaskEvent(const TaskEvent&) = delete;
  TaskEvent& operator=(const TaskEvent&) = delete;

  const std::string& label() const;
  TaskStatus status() const;
  bool is_done() const;  // complete or failed
  // Failed, leaving the data it writes suspect: it failed while running (it may have
  // written part of it) or with a failure of its dependencies (the data it would have
  // replaced is suspect itself). The memory models and buffers make the readers of such a
  // writer's data fail with its error instead of reading what it left. False for a task that
  // did not fail and for one refused before it started (mark_refused).
  bool failed_with_data() const;

  void mark_running();
  void mark_complete();
  void mark_failed(std::exception_ptr failure);
  // Fails a task that has not started, for a reason of its own (cancelled before it started,
  // a wait that could never end) while none of its dependencies failed: it wrote nothing,
  // so its data stays as it was and its readers do not fail with its error.
  void mark_refused(std::exception_ptr failure);
  // Fails the event, not started, with the failure of `dependency` (failed), which it
  // carries on (see above): as mark_failed, or as mark_refused when `refused`.
  void fail_with_failure_of(const TaskEvent& dependency, bool refused);

  // Blocks until done; rethrows the task's failure.
  void wait() const;
  // Blocks until done or `timeout` has passed: true when done (rethrowing the failure, as
  // wait() does), false when not done in time.
  bool wait_for(std::chrono::nanoseconds timeout) const;
  // Blocks until done; never rethrows (the failure stays unobserved).
  void wait_done() const;
  // wait_done() for at most `timeout`: true when done.
  bool wait_done_for(std::chrono::nanoseconds timeout) const;
  // The failure of a failed event (nullptr before, and for one that did not fail), not
  // observed by this read.
  std::exception_ptr failure() const;
  // Whether a wait rethrew this event's failure, from this event or from one that carries
  // it on.
  bool failure_observed() const;

  // Asks the task to stop (see above); no effect once it is done.
  void cancel();
  bool cancel_requested() const;
  // Runs `callback` when cancel() is first called (on that thread), at once when it was
  // called already; never once the event is done (the callbacks not run are released when
  // it finishes). const: it changes nothing of the task (backends get current_task() as a
  // const pointer). `callback` must not throw and must not wait for the task.
  void on_cancel(std::function<void()> callback) const;

  // The core's bookkeeping: the failure sink of the runtime that made the event (set once,
  // before the event can fail), and the event a scheduler's worker is blocked on for this
  // task (set while it waits; nullptr otherwise), which the core follows to find waits that
  // can never end (a thread holding a host view waiting for work that waits for the view).
  void set_failure_sink(std::shared_ptr<detail::FailureSink> sink);
  void set_waiting_on(std::shared_ptr<TaskEvent> dependency);
  std::shared_ptr<TaskEvent> waiting_on() const;
  // Runs `callback` once the event is done (at once if it already is).
  void on_done(std::function<void()> callback);

  // The in-order queue this task's work was enqueued on and is still pending on (see above).
  void set_pending_on(DeviceQueue* queue);
  DeviceQueue* pending_on() const;

  // True when a marker behind this task's work is recorded or will be (its work is not
  // enqueued yet: its starter records one); false when none will be (the work was enqueued
  // before anyone asked, or the event is done without one): wait for the event instead.
  bool request_marker();
  // Blocks until the marker asked for is recorded or the event is done (spinning first, as
  // wait()); the marker, or nullptr when there is none (the queue could not mark, or the
  // event is done: its marker is released then). Does not throw the task's failure.
  std::shared_ptr<const QueueMarker> wait_marker() const;
  // For the task's starter, once its work is in `queue` (left there to run): records
  // queue.mark() when a marker was asked for, and tells the waiters.
  void enqueued(DeviceQueue& queue);

  clock::time_point submitted_at() const;
  clock::time_point started_at() const;   // valid once running
  clock::time_point finished_at() const;  // valid once done

 private:
  void finish(TaskStatus final_status, std::exception_ptr failure);
  // wait(), wait_for() and wait_done(): false when `deadline` passed first; `observe`:
  // rethrow a failure (marking it observed).
  bool wait_until(clock::time_point deadline, bool observe) const;

  // The state lives behind a pointer so that its layout is not part of the plugin ABI.
  // make() places it in the same allocation as the event (Block); the destructor then
  // destroys it without freeing it.
  struct State;
  struct Block;
  TaskEvent(std::string label, State* in_block);
  std::unique_ptr<State> state_;
};

}  // namespace plexus
