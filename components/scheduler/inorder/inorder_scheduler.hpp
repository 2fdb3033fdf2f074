// InorderScheduler: the baseline policy. Runs every task to completion, one after another,
// on the thread that submits it (after waiting for its dependencies). No concurrency, no
// reordering: the reference the other schedulers are measured against. Device tasks run on
// the device their queue asked for, else on the first device.
//
// Thread-safety: submit() from several threads is serialised by a mutex, so tasks never
// overlap. wait_all() returns at once: every submit() has finished its task on return.
#pragma once

#include <mutex>

#include "plexus/task_execution.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"

namespace plexus::inorder {

class InorderScheduler final : public Scheduler {
 public:
  explicit InorderScheduler(PluginContext& context);

  void submit(Task task) override;
  void wait_all() override;

 private:
  std::mutex run_mutex_;
  Device* first_device_ = nullptr;  // of the available backends; nullptr: none
  DeviceQueues queues_;             // guarded by run_mutex_
};

}  // namespace plexus::inorder
