// Task: one unit of work handed to the scheduler. Plain data, moved into the scheduler.
// The scheduler owns it from submit() on and must complete or fail `event` exactly once,
// and only after every event in `dependencies` is done (a failed dependency fails the task).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "plexus/task_event.hpp"

namespace plexus {

struct Task {
  std::shared_ptr<TaskEvent> event;                      // completion, created by the core
  std::vector<std::shared_ptr<TaskEvent>> dependencies;  // must be done before it runs
  std::function<void()> host_work;                       // a host task: runs on a host thread
};

}  // namespace plexus
