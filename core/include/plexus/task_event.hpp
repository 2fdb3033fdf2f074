// TaskEvent: the completion state of one task, shared by the submitter, the scheduler
// and any task that depends on it. Implemented in the core.
//
// A scheduler moves an event to running, then to complete or failed, exactly once.
// Thread-safety: every member is safe from any thread; wait() blocks without spinning.
// Ownership: shared (std::shared_ptr); callbacks run on the thread that completes the
// event, outside the event's lock, and must not throw.
#pragma once

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "plexus/export.hpp"

namespace plexus {

enum class TaskStatus { submitted, running, complete, failed };

class PLEXUS_API TaskEvent {
 public:
  using clock = std::chrono::steady_clock;

  explicit TaskEvent(std::string label = {});
  ~TaskEvent();
  TaskEvent(const TaskEvent&) = delete;
  TaskEvent& operator=(const TaskEvent&) = delete;

  const std::string& label() const { return label_; }
  TaskStatus status() const;
  bool is_done() const;  // complete or failed

  void mark_running();
  void mark_complete();
  void mark_failed(std::exception_ptr failure);

  // Blocks until done; rethrows the task's failure.
  void wait() const;
  // Runs `callback` once the event is done (at once if it already is).
  void on_done(std::function<void()> callback);

  clock::time_point submitted_at() const;
  clock::time_point started_at() const;   // valid once running
  clock::time_point finished_at() const;  // valid once done

 private:
  std::string label_;
  mutable std::mutex mutex_;
  mutable std::condition_variable done_cv_;
  TaskStatus status_ = TaskStatus::submitted;
  std::exception_ptr failure_;
  std::vector<std::function<void()>> callbacks_;
  clock::time_point submitted_at_, started_at_, finished_at_;
};

}  // namespace plexus
