// Queue::submit(ExecutableGraph): a command graph's submission (graph.hpp). A graph of
// kernels of one device runs as one task (one command group whose requirements are the
// graph's buffers, each once, and whose work is the kernels in order: CommandBody's replay);
// other graphs submit their nodes as ordinary tasks, then one command after them all.
#include <algorithm>

#include "auto_replay.hpp"
#include "command_body.hpp"
#include "graph_group.hpp"
#include "graph_state.hpp"
#include "plexus/error.hpp"
#include "plexus/graph.hpp"
#include "queue_state.hpp"
#include "queue_submit.hpp"
#include "runtime_state.hpp"

namespace plexus {

Event Queue::submit(const ExecutableGraph& graph) {
  auto runtime = detail::RuntimeState::lock(state_->runtime, "a queue");
  Scheduler& scheduler = runtime->scheduler();
  const auto& owner = graph.state();
  if (owner->runtime.owner_before(state_->runtime) || state_->runtime.owner_before(owner->runtime)) {
    throw error(error_category::invalid_argument,
                "Queue::submit: the command graph was recorded with another plexus::Runtime "
                "than this queue's");
  }
  if (state_->recording.load()) {
    throw error(error_category::invalid_argument,
                "Queue::submit: the queue is recording a command graph; a graph cannot be "
                "recorded into another (end the recording first)");
  }
  std::vector<detail::GraphNode> nodes = owner->snapshot();  // throws for destroyed buffers
  std::vector<Requirement> requirements;
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  for (const detail::GraphNode& node : nodes) {
    requirements.insert(requirements.end(), node.group.requirements.begin(),
                        node.group.requirements.end());
    dependencies.insert(dependencies.end(), node.group.dependencies.begin(),
                        node.group.dependencies.end());
  }
  const std::string what = "command graph";
  detail::cancel_conflicting(*runtime, state_.get(), requirements, dependencies, what);
  if (detail::in_fusion(*state_))
    detail::cancel_fusion(*runtime, *state_, "a command graph was submitted to the queue");

  std::unique_lock in_order(state_->submit_mutex, std::defer_lock);
  if (state_->order == QueueOrder::in_order) in_order.lock();
  if (state_->auto_graph) {  // what automatic replay holds runs first; the pattern ends
    detail::release_automatic_locked(*runtime, *state_);
    state_->auto_graph->reset();
  }
  if (owner->single_task) {
    auto event = TaskEvent::make("graph of " + std::to_string(nodes.size()) + " kernels");
    runtime->track(event);
    std::vector<detail::CommandGroup*> groups;
    groups.reserve(nodes.size());
    for (detail::GraphNode& node : nodes) groups.push_back(&node.group);
    detail::CommandGroup group = detail::group_of_kernels(groups, owner->key);
    std::vector<std::shared_ptr<TaskEvent>> before = std::move(group.dependencies);
    auto body = std::make_shared<detail::CommandBody>(*runtime, std::move(group), event);
    detail::submit_to_queue(scheduler, *state_, Task{event, std::move(before), {}, std::move(body)});
    return Event(std::move(event), state_->runtime);
  }
  // Node by node: each as Queue::submit would submit it, then one command after them all.
  const std::shared_ptr<TaskEvent> previous = detail::previous_command(*state_);
  std::vector<std::shared_ptr<TaskEvent>> events;
  events.reserve(nodes.size());
  for (detail::GraphNode& node : nodes) {
    auto event = TaskEvent::make(std::move(node.name));
    runtime->track(event);
    std::vector<std::shared_ptr<TaskEvent>> after = std::move(node.group.dependencies);
    if (node.previous != detail::GraphNode::none) {
      after.push_back(events[node.previous]);
    } else if (previous) {
      after.push_back(previous);
    }
    auto body = std::make_shared<detail::CommandBody>(*runtime, std::move(node.group), event);
    events.push_back(event);
    try {
      scheduler.submit(Task{event, std::move(after), {}, std::move(body)});
    } catch (...) {
      if (!event->is_done()) event->mark_failed(std::current_exception());
      throw;
    }
  }
  auto done = TaskEvent::make("command graph of " + std::to_string(nodes.size()) + " nodes");
  runtime->track(done);
  detail::submit_to_queue(scheduler, *state_, Task{done, std::move(events), {}, nullptr});  // a join
  return Event(std::move(done), state_->runtime);
}

}  // namespace plexus
