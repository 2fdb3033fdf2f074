#include "queue_submit.hpp"

#include "trace/tracer.hpp"

namespace plexus::detail {

namespace {

std::shared_ptr<TaskEvent> previous_locked(QueueState& queue) {
  if (queue.order == QueueOrder::in_order && queue.last &&
      (queue.last->status() != TaskStatus::complete || active_tracer())) {
    return queue.last;
  }
  return nullptr;
}

}  // namespace

std::shared_ptr<TaskEvent> previous_command(QueueState& queue) {
  std::lock_guard lock(queue.mutex);
  return previous_locked(queue);
}

void submit_to_queue(Scheduler& scheduler, QueueState& queue, Task task) {
  {
    std::lock_guard lock(queue.mutex);
    if (auto previous = previous_locked(queue)) task.dependencies.push_back(std::move(previous));
    queue.last = task.event;
    queue.pending.add(task.event);
  }
  const std::shared_ptr<TaskEvent> event = task.event;
  try {
    scheduler.submit(std::move(task));
  } catch (...) {
    if (!event->is_done()) event->mark_failed(std::current_exception());  // later groups fail too
    throw;
  }
}

}  // namespace plexus::detail
