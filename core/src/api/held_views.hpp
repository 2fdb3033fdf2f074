// Host views held by the calling thread (internal to the core). Waiting on one of them from
// the thread that holds it can never end; wait_for_dependencies asks held_by_this_thread()
// and fails the task with a clear error instead (the inorder scheduler runs work on the
// submitting thread). Thread-safety: per-thread state; every function is safe from any
// thread.
#pragma once

#include <memory>

#include "plexus/task_event.hpp"

namespace plexus::detail {

void note_view_held(const std::shared_ptr<TaskEvent>& view);
void note_view_released(const TaskEvent* view) noexcept;
// Whether `event` is a host view this thread holds and has not released.
bool held_by_this_thread(const TaskEvent& event);

}  // namespace plexus::detail
