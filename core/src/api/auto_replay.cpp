#include "auto_replay.hpp"

#include <string>
#include <vector>

#include "auto_graph.hpp"
#include "command_body.hpp"
#include "fusion_session.hpp"
#include "graph_group.hpp"
#include "plexus/log.hpp"
#include "queue_state.hpp"
#include "runtime_state.hpp"

namespace plexus::detail {

namespace {

bool holding_automatically(QueueState& queue) {
  std::lock_guard lock(queue.mutex);
  return queue.fusion && queue.fusion->active && queue.fusion->automatic;
}

void start_session(RuntimeState& runtime, const std::shared_ptr<QueueState>& queue,
                   std::size_t unit_length) {
  {
    std::lock_guard lock(queue->mutex);
    auto session = std::make_shared<FusionSession>(TaskEvent::make("automatic graph replay"));
    session->automatic = true;
    session->held.reserve(unit_length);  // no moves of held command groups as it fills
    queue->pending.add(session->command);
    queue->fusion = std::move(session);
  }
  runtime.fusions.add(queue);
}

// Holds a kernel in the queue's automatic session (as fusion's hold(), whose check that the
// command is pending costs a scan of the queue's pending events at every kernel: here the
// session's start made it pending); returns the session's command. The kernel gets no event
// (HeldKernel): the unit's first follows the queue's previous command, the others the
// kernel before them; the queue's last command is the session's, done after them all.
std::shared_ptr<TaskEvent> hold_kernel(QueueState& queue, std::unique_ptr<CommandGroup> group) {
  std::lock_guard lock(queue.mutex);
  FusionSession& session = *queue.fusion;
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  if (session.held.empty()) {
    if (queue.last) dependencies.push_back(queue.last);
    queue.last = session.command;
  }
  session.held.push_back({std::move(group), nullptr, std::move(dependencies)});
  return session.command;
}

// Submits the held unit as one task, and the session's command after it.
void replay_unit(RuntimeState& runtime, QueueState& queue) {
  std::shared_ptr<FusionSession> session = take_active(queue);
  if (!session) return;
  std::vector<CommandGroup*> groups;
  groups.reserve(session->held.size());
  for (HeldKernel& held : session->held) groups.push_back(held.group.get());
  // Only the first held kernel has dependencies (hold_kernel): the unit's.
  std::vector<std::shared_ptr<TaskEvent>> dependencies = std::move(session->held.front().dependencies);
  if (!queue.auto_key || queue.auto_key_pattern != queue.auto_graph->pattern()) {
    queue.auto_key = std::make_shared<DeviceGraphKey>(queue.runtime);
    queue.auto_key_pattern = queue.auto_graph->pattern();
  }
  CommandGroup group = group_of_kernels(groups, queue.auto_key);
  auto event = TaskEvent::make("graph of " + std::to_string(groups.size()) +
                               " kernels (automatic replay)");
  runtime.track(event);
  {
    std::lock_guard lock(queue.mutex);
    if (queue.last == session->command) queue.last = event;
  }
  auto body = std::make_shared<CommandBody>(runtime, std::move(group), event);
  try {
    runtime.scheduler().submit(Task{event, std::move(dependencies), {}, std::move(body)});
  } catch (...) {
    if (!event->is_done()) event->mark_failed(std::current_exception());
  }
  session->held.clear();
  // The unit's command ends as the replay does, with its failure carried on (one failure:
  // observed when a wait rethrows it from either). Not a task of its own: under the in-order scheduler such a task waits on
  // the host for the replay before the application's next submission returns, and so the
  // device's replay of one unit and the holding of the next never overlapped.
  event->on_done([command = session->command, replay = event.get()] {  // run by the replay itself
    if (replay->failure())
      command->fail_with_failure_of(*replay, false);
    else
      command->mark_complete();
  });
}

}  // namespace

void release_automatic_locked(RuntimeState& runtime, QueueState& queue) {
  if (!holding_automatically(queue)) return;
  if (std::shared_ptr<FusionSession> session = take_active(queue))
    release_unfused(runtime, queue, std::move(session));
}

QueueState::~QueueState() {
  if (!auto_graph || !holding_automatically(*this)) return;
  try {
    if (auto owner = runtime.lock()) release_automatic_locked(*owner, *this);
  } catch (const std::exception& failure) {
    logger().error("a queue going with kernels held for automatic replay: {}", failure.what());
  }
}

void release_automatic(RuntimeState& runtime, QueueState& queue) {
  if (!queue.auto_graph) return;
  std::lock_guard in_order(queue.submit_mutex);
  release_automatic_locked(runtime, queue);
  queue.auto_graph->reset();
}

void enable_auto_replay(const RuntimeState& runtime, QueueState& queue) {
  if (queue.order != QueueOrder::in_order || !runtime.auto_graph.enabled) return;
  queue.auto_graph = std::make_unique<AutoGraph>(runtime.auto_graph);
}

std::shared_ptr<TaskEvent> auto_replay(RuntimeState& runtime,
                                       const std::shared_ptr<QueueState>& shared,
                                       std::unique_ptr<CommandGroup>& owned) {
  QueueState& queue = *shared;
  CommandGroup& group = *owned;
  AutoGraph& detector = *queue.auto_graph;
  const bool held_now = holding_automatically(queue);
  if (detector.holding() && !held_now && detector.position() != 0) {
    detector.reset();  // released meanwhile (a wait, a host access...): start over
  }
  // A checked kernel (checks = "bounds") reads its record back after each launch, and a
  // cancellable one (cancel = "work_group") must stay cancellable while it runs (a replay's
  // nodes are not): not held.
  const bool eligible = group.kernel && group.dependencies.empty() && !group.graph &&
                        !group.kernel->info().bounds_checked && !group.kernel->info().cancellable;
  const AutoGraph::Step step = detector.next(eligible ? &group : nullptr);
  if (step == AutoGraph::Step::submit) {
    if (held_now) release_automatic_locked(runtime, queue);
    return nullptr;
  }
  if (!held_now) start_session(runtime, shared, detector.unit_length());
  std::shared_ptr<TaskEvent> command = hold_kernel(queue, std::move(owned));
  if (step == AutoGraph::Step::replay) replay_unit(runtime, queue);
  return command;
}

}  // namespace plexus::detail
