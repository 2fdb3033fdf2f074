// MyScheduler: skeleton of a Plexus scheduler. Interface: plexus/scheduler.hpp.
//
// As shipped it is a complete, correct scheduler without a policy: each task is placed (on
// the device its queue asked for, else the first device; host work on the host) and run
// inline, on the submitting thread, once its dependencies are done, with kernels launched
// on one device queue per device. Replace the policy, keep the mechanism:
//   - submit(): place the task (plexus::place_task) in submission order, keep it in your
//     own graph/queue and return; run it when it is ready (its dependencies are done) on
//     the worker threads you choose, with plexus::run_task_now(task, queue) or
//     plexus::start_task(task, queue), where `queue` is a DeviceQueue of the placement's
//     device (DeviceQueues::for_device(placement), one DeviceQueues per worker thread);
//   - wait_all(): block until every task submitted before the call is done.
// The task's body does the allocations, copies and the kernel launch itself: never
// complete a task's event without running it through those calls.
// Rules every scheduler must keep (task.hpp, task_event.hpp): run a task only after every
// event in task.dependencies is done; a failed dependency fails the task with the same
// failure; move task.event to running, then complete or failed, exactly once; an exception
// from the task's work fails the event (mark_failed), it never escapes.
//
// Thread-safety (the contract): submit() and wait_all() are called from any number of
// threads at once; guard your shared state (here: one mutex serialises the inline runs).
// The destructor waits for outstanding tasks.
// sdk/examples/fifo_scheduler is a complete scheduler with a worker thread.
#pragma once

#include <mutex>

#include "plexus/device.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task.hpp"
#include "plexus/task_execution.hpp"

namespace my_scheduler {

class MyScheduler final : public plexus::Scheduler {
 public:
  explicit MyScheduler(plexus::PluginContext& context);
  ~MyScheduler() override;

  void submit(plexus::Task task) override;
  void wait_all() override;

 private:
  std::mutex mutex_;  // serialises submit(): placement order and queues_
  // The other components are created before the scheduler and outlive it.
  plexus::Device* first_device_ = nullptr;     // nullptr: no device is available
  plexus::MemoryModel* memory_ = nullptr;      // nullptr when no memory model is configured
  plexus::DeviceQueues queues_;                // one in-order queue per device; guarded by mutex_
};

}  // namespace my_scheduler
