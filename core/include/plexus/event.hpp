// Event: the completion of one submitted command group (Queue::submit) or host access.
//
//   plexus::Event e = q.submit(...);
//   e.wait();                                   // rethrows the command's failure
//   auto took = e.end_time() - e.start_time();  // profiling (steady clock)
//
// A cheap shared handle (copies refer to the same event). Thread-safety: every member is
// safe from any thread. Using an event after its Runtime is destroyed throws
// plexus::error(invalid_argument); a default-constructed event is empty (valid() false) and
// wait() on it returns at once.
#pragma once

#include <chrono>
#include <memory>

#include "plexus/export.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

namespace detail {
class RuntimeState;
}

class PLEXUS_API Event {
 public:
  using clock = TaskEvent::clock;

  Event() = default;
  Event(std::shared_ptr<TaskEvent> event, std::weak_ptr<detail::RuntimeState> runtime);

  bool valid() const { return static_cast<bool>(event_); }
  void wait() const;
  // wait() for at most `timeout`: true when done (a failure rethrown), false when not yet.
  bool wait_for(std::chrono::nanoseconds timeout) const;
  // Asks the command to stop (TaskEvent::cancel): not started, it fails with
  // plexus::error(cancelled) instead of running; a host-backend kernel stops at its next
  // work-group, and so does an OpenCL kernel built cancellable (compiler option cancel =
  // "work_group", kernel_cancel.hpp). Other backends finish a launch they have started.
  void cancel() const;
  TaskStatus status() const;
  bool is_done() const;

  // Profiling timestamps: when the command was submitted, started running (after its
  // dependencies, before its copies) and finished. start/end are valid once done.
  clock::time_point submit_time() const;
  clock::time_point start_time() const;
  clock::time_point end_time() const;

  // The underlying task event (for Handler::depends_on and the scheduler interfaces).
  const std::shared_ptr<TaskEvent>& task_event() const { return event_; }

 private:
  const TaskEvent& checked() const;
  void release_if_held() const;  // automatic replay (docs/api.md)

  std::shared_ptr<TaskEvent> event_;
  std::weak_ptr<detail::RuntimeState> runtime_;
};

}  // namespace plexus
