// MyScheduler: skeleton of a Plexus scheduler. Interface: plexus/scheduler.hpp.
//
// As shipped it runs each task inline, on the submitting thread, once its dependencies
// are done: correct, but no policy. Fill in:
//   - submit(): keep the task in your own graph/queue and return; run it when it is ready
//     (its dependencies are done) on the worker threads or device queues you choose;
//   - wait_all(): block until every task submitted before the call is done.
// Rules every scheduler must keep (task.hpp, task_event.hpp): run a task only after every
// event in task.dependencies is done; a failed dependency fails the task with the same
// failure; move task.event to running, then complete or failed, exactly once; an exception
// from host_work fails the event (mark_failed), it never escapes.
//
// Thread-safety (the contract): submit() and wait_all() are called from any number of
// threads at once; guard your shared state. The destructor waits for outstanding tasks.
// sdk/examples/fifo_scheduler is a complete scheduler with a worker thread.
#pragma once

#include <vector>

#include "plexus/backend.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task.hpp"

namespace my_scheduler {

class MyScheduler final : public plexus::Scheduler {
 public:
  explicit MyScheduler(plexus::PluginContext& context);
  ~MyScheduler() override;

  void submit(plexus::Task task) override;
  void wait_all() override;

 private:
  static void run(plexus::Task& task);

  // The other components, created before the scheduler; valid for its whole life.
  std::vector<plexus::Backend*> backends_;
  plexus::MemoryModel* memory_ = nullptr;  // nullptr when no memory model is configured
};

}  // namespace my_scheduler
