// Helpers every scheduler needs to run a task's host work: the mechanism, not a policy
// (when and where a task runs stays the scheduler's choice).
// Thread-safety: call from any thread; they block on the task's dependencies.
#pragma once

#include <exception>

#include "plexus/export.hpp"
#include "plexus/task.hpp"

namespace plexus {

// Waits until every dependency is done; returns the first failure, or nullptr.
PLEXUS_API std::exception_ptr wait_for_dependencies(const Task& task);

// Runs the task on this thread now: waits for its dependencies (a failed dependency fails
// the task with the same failure, without running it), marks it running, runs host_work,
// and completes or fails its event. The task's own failures go to its event, not to the
// caller.
PLEXUS_API void run_task_now(Task& task);

}  // namespace plexus
