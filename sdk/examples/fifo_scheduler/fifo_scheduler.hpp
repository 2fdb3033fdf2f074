// FifoScheduler: an out-of-tree example scheduler. One worker thread runs the submitted
// tasks strictly in submission order; each runs only once its dependencies are done.
// Placement: a task's body is placed when it is submitted (in submission order, as the
// memory model needs) with the core's default placement: the host for host work, else the
// queue's device, else the first device.
//
// Options (`[scheduler.fifo]`):
//   queue_limit  integer, default 0 (unbounded). When > 0, submit() blocks while that many
//                tasks are queued and not yet started.
//
// Thread-safety: submit() and wait_all() may be called from any number of threads; all
// shared state is guarded by one mutex. Tasks run on the worker thread, outside the lock.
// A task may submit further tasks (it never blocks on queue_limit then) but must not call
// wait_all() (that would wait for itself; it throws instead).
// Ownership: the scheduler owns queued tasks; the destructor runs every queued task, then
// joins the worker.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "plexus/plugin_context.hpp"
#include "plexus/task_execution.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task.hpp"

namespace fifo_example {

class FifoScheduler final : public plexus::Scheduler {
 public:
  explicit FifoScheduler(plexus::PluginContext& context);
  // Reads the options as the constructor does, without creating the scheduler: the core
  // calls it for a [scheduler.fifo] table while another scheduler is selected (plugin.hpp).
  static void check_options(const plexus::ComponentOptions& options);
  ~FifoScheduler() override;

  void submit(plexus::Task task) override;
  void wait_all() override;

 private:
  void worker_loop();
  struct Queued {
    plexus::Task task;
    plexus::Device* placement = nullptr;
  };
  void execute(Queued& queued);  // on the worker thread, without the lock

  std::size_t queue_limit_ = 0;  // 0: unbounded
  plexus::Device* first_device_ = nullptr;
  plexus::DeviceQueues queues_;  // the worker's queue on each device (worker only)

  std::mutex mutex_;                  // guards everything below
  std::condition_variable work_cv_;   // the queue got a task, or stopping_
  std::condition_variable space_cv_;  // the queue shrank (queue_limit)
  std::condition_variable done_cv_;   // finished_ grew
  std::deque<Queued> queue_;
  std::uint64_t submitted_ = 0;  // tasks accepted by submit()
  std::uint64_t finished_ = 0;   // tasks whose event is done; FIFO: the first `finished_`
  bool stopping_ = false;

  std::thread worker_;  // last: started once everything above is initialised
};

}  // namespace fifo_example
