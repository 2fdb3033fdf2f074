// TaskEvent: the completion state of one task, shared by the submitter, the scheduler
// and any task that depends on it. Implemented in the core.
//
// A scheduler moves an event to running, then to complete or failed, exactly once; it may
// also fail (or complete) an event that never ran, e.g. when a dependency failed.
// Thread-safety: every member is safe from any thread; wait() spins up to 100 us (a short
// task ends sooner than a sleeping thread wakes), then blocks.
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

  void mark_running();
  void mark_complete();
  void mark_failed(std::exception_ptr failure);

  // Blocks until done; rethrows the task's failure.
  void wait() const;
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

  // The state lives behind a pointer so that its layout is not part of the plugin ABI.
  // make() places it in the same allocation as the event (Block); the destructor then
  // destroys it without freeing it.
  struct State;
  struct Block;
  TaskEvent(std::string label, State* in_block);
  std::unique_ptr<State> state_;
};

}  // namespace plexus
