// Host views held by threads (internal to the core), to find waits that can never end:
// - waiting on a view from the thread that holds it: wait_for_dependencies asks
//   held_by_this_thread() and fails the task at once (the inorder scheduler runs work on the
//   submitting thread);
// - a thread that holds a view and waits (AwaitScope: TaskEvent's waits, Runtime::wait) for
//   work that waits for that view (a scheduler's worker, TaskEvent::waiting_on links):
//   holder_waits_for() tells the worker, which fails the task instead of waiting forever.
// Thread-safety: every function is safe from any thread.
#pragma once

#include <memory>

#include "plexus/task_event.hpp"

namespace plexus::detail {

void note_view_held(const std::shared_ptr<TaskEvent>& view);
void note_view_released(const TaskEvent* view) noexcept;
// Whether `event` is a host view this thread holds and has not released.
bool held_by_this_thread(const TaskEvent& event);
// Whether this thread holds a view not yet released.
bool this_thread_holds_views();

// While alive, this thread (if it holds views) waits for `awaited`, or for every task.
class AwaitScope {
 public:
  struct Everything {};
  explicit AwaitScope(const TaskEvent* awaited);
  explicit AwaitScope(Everything);
  ~AwaitScope();
  AwaitScope(const AwaitScope&) = delete;
  AwaitScope& operator=(const AwaitScope&) = delete;

 private:
  bool active_ = false;
};

// Whether `view` is held by a thread that now waits for every task, or for `task` (directly
// or through the events that the awaited tasks' workers wait on).
bool holder_waits_for(const TaskEvent& view, const TaskEvent& task);

// At placement (place_task): `task` depends on `dependency`. When that is a held view, or a
// task that itself waits for one, `task` records it (TaskEvent::waiting_on), so that the
// view's holder finds, before it blocks, that it would wait for its own view (below).
// Free when no view is held anywhere.
void note_dependency(TaskEvent& task, const std::shared_ptr<TaskEvent>& dependency);
// For the thread about to wait for `awaited` (nullptr: for every task): plexus::error
// (invalid_argument) when that would wait for a host view this thread holds.
void check_wait(const TaskEvent* awaited);

}  // namespace plexus::detail
