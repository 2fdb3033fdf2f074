#include "plexus/task_execution.hpp"

namespace plexus {

std::exception_ptr wait_for_dependencies(const Task& task) {
  for (const auto& dependency : task.dependencies) {
    if (!dependency) continue;
    try {
      dependency->wait();  // rethrows the dependency's failure
    } catch (...) {
      return std::current_exception();
    }
  }
  return nullptr;
}

void run_task_now(Task& task) {
  if (std::exception_ptr failure = wait_for_dependencies(task)) {
    task.event->mark_failed(failure);
    return;
  }
  task.event->mark_running();
  try {
    if (task.host_work) task.host_work();
  } catch (...) {
    task.event->mark_failed(std::current_exception());
    return;
  }
  task.event->mark_complete();
}

}  // namespace plexus
