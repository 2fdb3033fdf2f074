#include "inorder_scheduler.hpp"

#include "plexus/task_execution.hpp"

namespace plexus::inorder {

InorderScheduler::InorderScheduler(PluginContext&) {}

void InorderScheduler::submit(Task task) {
  std::lock_guard lock(run_mutex_);
  run_task_now(task);
}

void InorderScheduler::wait_all() {
  // Tasks are finished before submit() returns; taking the lock waits for one in flight.
  std::lock_guard lock(run_mutex_);
}

}  // namespace plexus::inorder
