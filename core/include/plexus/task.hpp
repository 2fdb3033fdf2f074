// Task: one unit of work handed to the scheduler. Plain data, moved into the scheduler.
// The scheduler owns it from submit() on and must complete or fail `event` exactly once,
// and only after every event in `dependencies` is done (a failed dependency fails the task).
// A task has either `host_work` (a plain host task) or a `body` (see task_body.hpp).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "plexus/task_body.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

struct Task {
  std::shared_ptr<TaskEvent> event;                      // completion, created by the core
  std::vector<std::shared_ptr<TaskEvent>> dependencies;  // must be done before it runs
  std::function<void()> host_work;                       // a host task: runs on a host thread
  std::shared_ptr<TaskBody> body;                        // placed and run by the scheduler
};

}  // namespace plexus
