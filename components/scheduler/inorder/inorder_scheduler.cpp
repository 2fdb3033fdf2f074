#include "inorder_scheduler.hpp"

#include "plexus/component_lookup.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::inorder {

InorderScheduler::InorderScheduler(PluginContext& context) {
  const auto devices = available_devices(context.components);
  if (!devices.empty()) first_device_ = devices.front();
}

void InorderScheduler::submit(Task task) {
  std::lock_guard lock(run_mutex_);
  Device* placement = task.body ? default_placement(*task.body, first_device_) : nullptr;
  try {
    place_task(task, placement);
  } catch (...) {
    task.event->mark_failed(std::current_exception());
    return;
  }
  run_task_now(task, queues_.for_device(placement));
}

void InorderScheduler::wait_all() {
  // Tasks are finished before submit() returns; taking the lock waits for one in flight.
  std::lock_guard lock(run_mutex_);
}

}  // namespace plexus::inorder
