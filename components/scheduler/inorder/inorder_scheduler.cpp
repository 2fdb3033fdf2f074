#include "inorder_scheduler.hpp"

namespace plexus::inorder {

InorderScheduler::InorderScheduler(PluginContext&) {}

void InorderScheduler::submit(Task task) {
  std::lock_guard lock(run_mutex_);
  try {
    for (const auto& dependency : task.dependencies) dependency->wait();
    task.event->mark_running();
    if (task.host_work) task.host_work();
  } catch (...) {
    task.event->mark_failed(std::current_exception());
    return;
  }
  task.event->mark_complete();
}

void InorderScheduler::wait_all() {
  // Tasks are finished before submit() returns; taking the lock waits for one in flight.
  std::lock_guard lock(run_mutex_);
}

}  // namespace plexus::inorder
