// FusionSession and FusionRegistry: holding kernels, cancelling (explicitly or early),
// releasing the held kernels unfused. Completion is in fusion_complete.cpp.
#include "fusion_session.hpp"

#include <algorithm>

#include "auto_replay.hpp"
#include "command_body.hpp"
#include "plexus/log.hpp"
#include "queue_state.hpp"
#include "runtime_state.hpp"

namespace plexus::detail {

void FusionRegistry::add(const std::shared_ptr<QueueState>& queue) {
  std::lock_guard lock(mutex_);
  // Once per queue (automatic replay starts a session per unit).
  for (const auto& known : queues_)
    if (!known.owner_before(queue) && !queue.owner_before(known)) return;
  queues_.push_back(queue);
  publish_locked();
}

void FusionRegistry::publish_locked() {
  sole_.store(queues_.size() == 1 ? queues_.front().lock().get() : nullptr,
              std::memory_order_release);
  registered_.store(queues_.size(), std::memory_order_release);
}

bool FusionRegistry::others_than(const QueueState* except) const {
  const std::size_t registered = registered_.load(std::memory_order_acquire);
  if (registered == 0) return false;
  return registered > 1 || except == nullptr || sole_.load(std::memory_order_acquire) != except;
}

std::vector<std::shared_ptr<QueueState>> FusionRegistry::fusing() {
  if (registered_.load(std::memory_order_acquire) == 0) return {};  // the usual case: none
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<QueueState>> live;
  std::erase_if(queues_, [&](const std::weak_ptr<QueueState>& weak) {
    auto queue = weak.lock();
    if (!queue) return true;
    std::lock_guard queue_lock(queue->mutex);
    if (!queue->fusion || !queue->fusion->active) return true;
    live.push_back(std::move(queue));
    return false;
  });
  publish_locked();
  return live;
}

void start_fusion(RuntimeState& runtime, const std::shared_ptr<QueueState>& queue) {
  {
    std::lock_guard lock(queue->mutex);
    if (queue->fusion && queue->fusion->active)
      throw error(error_category::invalid_argument,
                  "start_fusion: the queue is already in fusion mode (complete_fusion or "
                  "cancel_fusion first)");
    // The previous session (and its event) goes now: complete_fusion after an early
    // cancellation still returned it until here.
    queue->fusion = std::make_shared<FusionSession>(std::make_shared<TaskEvent>("kernel fusion"));
    queue->fusing.store(true, std::memory_order_release);
  }
  runtime.fusions.add(queue);
}

bool in_fusion(QueueState& queue) { return queue.fusing.load(std::memory_order_acquire); }

std::shared_ptr<TaskEvent> hold(QueueState& queue, std::unique_ptr<CommandGroup> group,
                                std::vector<std::shared_ptr<TaskEvent>> dependencies,
                                std::string name) {
  auto event = TaskEvent::make(std::move(name));  // the body's name too
  std::lock_guard lock(queue.mutex);
  if (queue.order == QueueOrder::in_order && queue.last) dependencies.push_back(queue.last);
  queue.last = event;
  queue.fusion->held.push_back({std::move(group), event, std::move(dependencies)});
  if (!queue.pending.contains(queue.fusion->command)) queue.pending.add(queue.fusion->command);
  return queue.fusion->command;
}

namespace {

// Submits the fusion command: done once `after` is (a join, task.hpp: no work of its own).
void submit_command(RuntimeState& runtime, const std::shared_ptr<TaskEvent>& command,
                    std::vector<std::shared_ptr<TaskEvent>> after) {
  runtime.scheduler().submit(Task{command, std::move(after), {}, nullptr});
}

}  // namespace

void release_unfused(RuntimeState& runtime, QueueState& queue,
                     std::shared_ptr<FusionSession> session) {
  std::vector<std::shared_ptr<TaskEvent>> events;
  for (HeldKernel& held : session->held) {
    if (!held.event) {  // held for automatic replay: it follows the kernel before it
      held.event = TaskEvent::make(command_name(*held.group));
      if (!events.empty()) held.dependencies.push_back(events.back());
    }
    auto body = std::make_shared<CommandBody>(runtime, std::move(*held.group), held.event);
    events.push_back(held.event);
    try {
      runtime.scheduler().submit(Task{held.event, std::move(held.dependencies), {}, std::move(body)});
    } catch (...) {
      if (!held.event->is_done()) held.event->mark_failed(std::current_exception());
    }
  }
  session->held.clear();
  {
    std::lock_guard lock(queue.mutex);
    if (queue.order == QueueOrder::in_order) queue.last = session->command;
  }
  submit_command(runtime, session->command, std::move(events));
}

std::shared_ptr<FusionSession> take_active(QueueState& queue) {
  std::lock_guard lock(queue.mutex);
  if (!queue.fusion || !queue.fusion->active) return nullptr;
  queue.fusion->active = false;
  queue.fusing.store(false, std::memory_order_release);
  return queue.fusion;
}

void cancel_fusion(RuntimeState& runtime, QueueState& queue, const std::string& why) {
  {
    std::unique_lock lock(queue.mutex);
    if (queue.fusion && queue.fusion->active && queue.fusion->automatic) {
      lock.unlock();
      // In queue order with the submitter's own decisions (it holds submit_mutex then).
      std::lock_guard in_order(queue.submit_mutex);
      if (!why.empty()) logger().debug("automatic graph replay released: {}", why);
      release_automatic_locked(runtime, queue);
      return;
    }
  }
  std::shared_ptr<FusionSession> session = take_active(queue);
  if (!session) {
    if (why.empty()) logger().debug("cancel_fusion: the queue is not in fusion mode");
    return;
  }
  if (!why.empty())
    logger().warn("kernel fusion cancelled early ({} held kernels run unfused): {}",
                  session->held.size(), why);
  release_unfused(runtime, queue, std::move(session));
}

namespace {

// cancel_conflicting, with the command's description made only when a fusion is cancelled.
template <class Describe>
void cancel_conflicting_described(RuntimeState& runtime, const QueueState* except,
                                  std::span<const Requirement> requirements,
                                  const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                                  const Describe& what, bool all, bool automatic_only) {
  if (!all && !runtime.fusions.others_than(except)) return;
  for (const std::shared_ptr<QueueState>& queue : runtime.fusions.fusing()) {
    if (queue.get() == except) continue;
    bool depends = all;
    {
      std::lock_guard lock(queue->mutex);
      if (!queue->fusion || !queue->fusion->active) continue;
      if (automatic_only && !queue->fusion->automatic) continue;
      const FusionSession& session = *queue->fusion;
      for (const auto& dependency : dependencies)
        depends = depends || dependency == session.command ||
                  std::any_of(session.held.begin(), session.held.end(),
                              [&](const HeldKernel& h) { return h.event == dependency; });
      for (const HeldKernel& held : session.held)
        for (const Requirement& theirs : held.group->requirements)
          for (const Requirement& ours : requirements)
            depends = depends || (theirs.storage == ours.storage &&
                                  (writes(theirs.mode) || writes(ours.mode)));
    }
    if (depends)
      cancel_fusion(runtime, *queue, what() + " depends on a kernel held for fusion");
  }
}

}  // namespace

void cancel_conflicting(RuntimeState& runtime, const QueueState* except,
                        std::span<const Requirement> requirements,
                        const std::vector<std::shared_ptr<TaskEvent>>& dependencies,
                        const std::string& what, bool all, bool automatic_only) {
  cancel_conflicting_described(runtime, except, requirements, dependencies,
                               [&] { return what; }, all, automatic_only);
}

void cancel_conflicting(RuntimeState& runtime, const QueueState& queue, const CommandGroup& group) {
  cancel_conflicting_described(runtime, &queue, group.requirements, group.dependencies,
                               [&] { return command_name(group); }, false, false);
}

}  // namespace plexus::detail
