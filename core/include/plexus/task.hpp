// Task: one unit of work handed to the scheduler. Plain data, moved into the scheduler.
// The scheduler owns it from submit() on and must complete or fail `event` exactly once,
// and only after every event in `dependencies` is done (a failed dependency fails the task).
// A task has either `host_work` (a plain host task) or a `body` (see task_body.hpp), or
// neither: a join, which does no work and only completes once its dependencies are done
// (failing with the first failure among them, as any task does). The core submits joins to
// complete a command after others (a fusion's or an automatic replay's command, a command
// graph's end); run_task_now runs one as any task. A scheduler need not give a join a
// thread of its own: it may run it on the thread that completes its last dependency
// (when_done), or on the submitting thread when they are all done (scheduler/dag does).
//
// `submitter_waits`: the thread that submits the task waits for its event as soon as
// submit() returns (the core sets it for a host access, BufferHandle::host_access, whose
// thread blocks until the data is on the host). A scheduler may then run a task that runs
// on the host (host_work, or a body that runs_on_host) on the submitting thread inside
// submit() (run_task_now), instead of handing it to another thread and waking the submitter
// when it is done (two thread hand-offs for a thread that sits idle meanwhile); dag and heft
// do when its dependencies are done at submission (otherwise it goes to their workers as
// any host task), inorder runs every task on the submitting thread anyway. Everything else
// stays as for any task: the event completes or fails exactly once, the task's failures go
// to its event (submit() does not throw them), and wait_all() waits for it. A scheduler may
// ignore the flag. Never set it for a task whose submitter does not wait at once: submit()
// may then run the task before it returns.
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
  bool submitter_waits = false;  // the submitter waits for `event` at once (above)
  // Neither host_work nor body: a join (above).
  bool is_join() const { return !host_work && !body; }
};

}  // namespace plexus
