#include "plexus/queue.hpp"

#include <algorithm>

#include "auto_replay.hpp"
#include "command_body.hpp"
#include "command_group.hpp"
#include "fusion_session.hpp"
#include "graph_state.hpp"
#include "queue_submit.hpp"
#include "plexus/error.hpp"
#include "queue_state.hpp"
#include "runtime_state.hpp"
#include "trace/tracer.hpp"

namespace plexus {

Queue::Queue(std::shared_ptr<detail::QueueState> state) : state_(std::move(state)) {}

Device& Queue::device() const { return *state_->device; }
QueueOrder Queue::order() const { return state_->order; }
std::weak_ptr<detail::RuntimeState> Queue::runtime_state() const { return state_->runtime; }

Handler Queue::begin_group() {
  detail::RuntimeState::check(state_->runtime, "a queue");
  auto group = std::make_unique<detail::CommandGroup>();
  group->runtime = state_->runtime;
  group->device = state_->device;
  group->device_bound = state_->bound;
  return Handler(std::move(group));
}

Event Queue::end_group(Handler& handler) {
  auto runtime = detail::RuntimeState::lock(state_->runtime, "a queue");
  Scheduler& scheduler = runtime->scheduler();  // throws before anything is recorded
  detail::CommandGroup& group = *handler.group_;  // moved into the body (or held) below
  if (state_->recording.load(std::memory_order_acquire) &&
      detail::record_group(*state_, group, detail::command_name(group))) {
    return Event();  // recorded into a command graph (graph.hpp), not run
  }
  // Kernel fusion: early cancellation of fusions this group depends on; kernels are held.
  detail::cancel_conflicting(*runtime, *state_, group);
  if (detail::in_fusion(*state_)) {
    const std::string name = detail::command_name(group);
    if (group.kernel) {
      std::vector<std::shared_ptr<TaskEvent>> held_dependencies = std::move(group.dependencies);
      return Event(detail::hold(*state_, std::move(handler.group_), std::move(held_dependencies), name),
                   state_->runtime);
    }
    detail::cancel_fusion(*runtime, *state_, "a " + name + " was submitted to the queue");
  }
  std::unique_lock in_order(state_->submit_mutex, std::defer_lock);
  if (state_->order == QueueOrder::in_order) in_order.lock();
  if (state_->auto_graph) {  // automatic replay (auto_replay.hpp): held, or submitted below
    if (auto held = detail::auto_replay(*runtime, state_, handler.group_))
      return Event(std::move(held), state_->runtime);
  }
  auto event = TaskEvent::make(detail::command_name(group));  // the body's name too
  runtime->track(event);
  std::vector<std::shared_ptr<TaskEvent>> dependencies = std::move(group.dependencies);
  auto body = std::make_shared<detail::CommandBody>(*runtime, std::move(handler.group_), event);
  detail::submit_to_queue(scheduler, *state_,
                          Task{event, std::move(dependencies), {}, std::move(body)});
  return Event(std::move(event), state_->runtime);
}

void Queue::wait() { wait_for(std::chrono::nanoseconds::max()); }

bool Queue::wait_for(std::chrono::nanoseconds timeout) {
  const auto start = TaskEvent::clock::now();
  const bool forever = timeout >= TaskEvent::clock::time_point::max() - start;
  auto runtime = detail::RuntimeState::lock(state_->runtime, "a queue");
  detail::cancel_fusion(*runtime, *state_, "the queue is waited for");
  detail::PendingEvents::List pending;
  {
    std::lock_guard lock(state_->mutex);
    pending = state_->pending.events();
  }
  std::exception_ptr first;
  for (const auto& event : pending) {
    try {
      const auto left = forever ? timeout : timeout - (TaskEvent::clock::now() - start);
      if (!event->wait_for(std::max(left, std::chrono::nanoseconds(0)))) return false;
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->pending.drop_done();
  }
  if (first) std::rethrow_exception(first);
  return true;
}

}  // namespace plexus
