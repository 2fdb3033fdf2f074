#include "inorder_scheduler.hpp"

#include <algorithm>

#include "plexus/component_lookup.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::inorder {

InorderScheduler::InorderScheduler(PluginContext& context) {
  const auto devices = available_devices(context.components);
  if (!devices.empty()) first_device_ = devices.front();
}

InorderScheduler::~InorderScheduler() { wait_all(); }  // before the queues go

void InorderScheduler::submit(Task task) {
  std::lock_guard lock(run_mutex_);
  Device* placement = task.body ? default_placement(*task.body, first_device_) : nullptr;
  try {
    place_task(task, placement);
  } catch (...) {
    task.event->mark_failed(std::current_exception());
    return;
  }
  start_task(task, queues_.for_device(placement));
  const auto first_pending = std::find_if(pending_.begin(), pending_.end(),
                                          [](const auto& event) { return !event->is_done(); });
  pending_.erase(pending_.begin(), first_pending);
  if (!task.event->is_done()) pending_.push_back(std::move(task.event));
}

void InorderScheduler::wait_all() {
  std::vector<std::shared_ptr<TaskEvent>> pending;
  {
    std::lock_guard lock(run_mutex_);  // also waits for a submit() in flight
    pending = pending_;
  }
  // The failures belong to the tasks' events: wait_all only waits (not observing).
  for (const auto& event : pending) event->wait_done();
}

}  // namespace plexus::inorder
