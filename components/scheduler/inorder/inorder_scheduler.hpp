// InorderScheduler: the baseline policy. Starts every task, one after another, on the thread
// that submits it (after waiting for its dependencies). No concurrency, no reordering: the
// reference the other schedulers are measured against. Device tasks run on the device their
// queue asked for, else on the first device, on one in-order DeviceQueue per device.
//
// A kernel task's work is left enqueued on its device queue (start_task): submit() returns
// once it is enqueued, and a later task on the same device whose dependencies are only
// pending in that queue is enqueued behind them without waiting. Everything else (host
// tasks, host accesses, dependencies on other devices) is waited for as it comes.
//
// Thread-safety: submit() from several threads is serialised by a mutex. wait_all() waits
// for every task whose work is still pending; the destructor too.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "plexus/task_execution.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"

namespace plexus::inorder {

class InorderScheduler final : public Scheduler {
 public:
  explicit InorderScheduler(PluginContext& context);
  // Reads no options: a key in its table is warned about (plugin.hpp, check_options).
  static void check_options(const ComponentOptions&) {}
  ~InorderScheduler() override;

  void submit(Task task) override;
  void wait_all() override;

 private:
  std::mutex run_mutex_;
  Device* first_device_ = nullptr;  // of the available backends; nullptr: none
  DeviceQueues queues_;             // guarded by run_mutex_
  // Events of started tasks that may not be done yet, in submission order; guarded by
  // run_mutex_, done ones dropped from the front as submit() goes.
  std::vector<std::shared_ptr<TaskEvent>> pending_;
};

}  // namespace plexus::inorder
