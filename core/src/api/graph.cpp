// CommandGraph and ExecutableGraph (graph.hpp): recording and finalizing. Submission is in
// graph_submit.cpp.
#include "plexus/graph.hpp"

#include <algorithm>

#include "auto_replay.hpp"
#include "buffer_storage.hpp"
#include "graph_state.hpp"
#include "plexus/error.hpp"
#include "plexus/queue.hpp"
#include "queue_state.hpp"
#include "runtime_state.hpp"

namespace plexus {

namespace detail {

void GraphState::add(const QueueState& queue, CommandGroup group, std::string name) {
  GraphNode node{std::move(group), std::move(name)};
  if (queue.order == QueueOrder::in_order) {
    auto [last, inserted] = last_on_queue.try_emplace(&queue, nodes.size());
    if (!inserted) node.previous = std::exchange(last->second, nodes.size());
  }
  nodes.push_back(std::move(node));
}

bool record_group(QueueState& queue, CommandGroup& group, const std::string& name) {
  std::shared_ptr<GraphState> graph;
  {
    std::lock_guard lock(queue.mutex);
    graph = queue.graph;
  }
  if (!graph) return false;
  std::lock_guard lock(graph->mutex);
  graph->add(queue, std::move(group), name);
  return true;
}

ExecutableGraphState::ExecutableGraphState(std::weak_ptr<RuntimeState> owner,
                                           std::vector<GraphNode> recorded)
    : runtime(std::move(owner)),
      key(std::make_shared<DeviceGraphKey>(runtime)),
      nodes(std::move(recorded)) {
  device = nodes.empty() ? nullptr : nodes.front().group.device;
  single_task = std::all_of(nodes.begin(), nodes.end(), [&](const GraphNode& node) {
    return node.group.kernel && node.group.device == device;
  });
}

void ExecutableGraphState::check_buffers(const std::vector<GraphNode>& nodes, const char* what) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const Requirement& requirement : nodes[i].group.requirements) {
      if (requirement.storage->handle_destroyed()) {
        throw error(error_category::invalid_argument,
                    std::string(what) + ": node " + std::to_string(i + 1) + " (" + nodes[i].name +
                        ") uses a buffer that has been destroyed, so the graph is invalid; "
                        "record it again with live buffers (or rebind the buffer before it goes)");
      }
    }
  }
}

std::vector<GraphNode> ExecutableGraphState::snapshot() const {
  std::vector<GraphNode> copy;
  {
    std::lock_guard lock(mutex);
    copy = nodes;
  }
  check_buffers(copy, "submitting a command graph");
  for (GraphNode& node : copy) refresh_parameters(node.group.arguments);
  return copy;
}

}  // namespace detail

CommandGraph::CommandGraph() : state_(std::make_shared<detail::GraphState>()) {}

void CommandGraph::begin_recording(Queue& queue) {
  detail::QueueState& target = *queue.state_;
  auto runtime = detail::RuntimeState::lock(target.runtime, "a queue");
  detail::release_automatic(*runtime, target);  // kernels held for automatic replay run first
  std::lock_guard graph_lock(state_->mutex);
  if (state_->has_runtime && (state_->runtime.owner_before(target.runtime) ||
                              target.runtime.owner_before(state_->runtime))) {
    throw error(error_category::invalid_argument,
                "CommandGraph::begin_recording: the queue belongs to another plexus::Runtime "
                "than the queues that recorded into this graph");
  }
  std::lock_guard lock(target.mutex);
  if (target.graph) {
    throw error(error_category::invalid_argument,
                target.graph == state_
                    ? "CommandGraph::begin_recording: the queue already records into this graph"
                    : "CommandGraph::begin_recording: the queue already records into another "
                      "graph; end that recording first");
  }
  if (target.fusing.load()) {
    throw error(error_category::invalid_argument,
                "CommandGraph::begin_recording: the queue is fusing kernels; complete or cancel "
                "the fusion first");
  }
  target.graph = state_;
  target.recording.store(true, std::memory_order_release);
  state_->runtime = target.runtime;
  state_->has_runtime = true;
  state_->queues.push_back(queue.state_);
}

void CommandGraph::end_recording(Queue& queue) {
  std::lock_guard graph_lock(state_->mutex);
  detail::QueueState& target = *queue.state_;
  {
    std::lock_guard lock(target.mutex);
    if (target.graph != state_) return;
    target.graph.reset();
    target.recording.store(false, std::memory_order_release);
  }
  std::erase_if(state_->queues, [&](const std::weak_ptr<detail::QueueState>& weak) {
    auto recording = weak.lock();
    return !recording || recording.get() == &target;
  });
}

void CommandGraph::end_recording() {
  std::lock_guard graph_lock(state_->mutex);
  for (auto& weak : state_->queues) {
    if (auto recording = weak.lock()) {
      std::lock_guard lock(recording->mutex);
      if (recording->graph == state_) {
        recording->graph.reset();
        recording->recording.store(false, std::memory_order_release);
      }
    }
  }
  state_->queues.clear();
}

std::size_t CommandGraph::size() const {
  std::lock_guard lock(state_->mutex);
  return state_->nodes.size();
}

ExecutableGraph CommandGraph::finalize() const {
  std::vector<detail::GraphNode> nodes;
  std::weak_ptr<detail::RuntimeState> runtime;
  {
    std::lock_guard lock(state_->mutex);
    nodes = state_->nodes;
    runtime = state_->runtime;
  }
  if (nodes.empty()) {
    throw error(error_category::invalid_argument,
                "CommandGraph::finalize: nothing was recorded (submit command groups to a queue "
                "between begin_recording and end_recording)");
  }
  detail::ExecutableGraphState::check_buffers(nodes, "CommandGraph::finalize");
  return ExecutableGraph(
      std::make_shared<detail::ExecutableGraphState>(std::move(runtime), std::move(nodes)));
}

ExecutableGraph::ExecutableGraph(std::shared_ptr<detail::ExecutableGraphState> state)
    : state_(std::move(state)) {}

std::size_t ExecutableGraph::size() const {
  std::lock_guard lock(state_->mutex);
  return state_->nodes.size();
}

bool ExecutableGraph::single_task() const { return state_->single_task; }

void ExecutableGraph::rebind_handle(const BufferHandle& from, const BufferHandle& to) {
  const auto& old_storage = from.storage();
  const auto& new_storage = to.storage();
  if (old_storage->desc().element_size != new_storage->desc().element_size ||
      old_storage->desc().extent != new_storage->desc().extent) {
    throw error(error_category::invalid_argument,
                "ExecutableGraph::rebind: the buffers differ in element size or extent; a graph "
                "can only switch to a buffer of the same shape");
  }
  new_storage->bind(state_->runtime, "ExecutableGraph::rebind");
  std::lock_guard lock(state_->mutex);
  bool used = false;
  for (detail::GraphNode& node : state_->nodes) {
    for (Requirement& requirement : node.group.requirements) {
      if (requirement.storage == old_storage) {
        requirement.storage = new_storage;
        used = true;
      }
    }
  }
  if (!used) {
    throw error(error_category::invalid_argument,
                "ExecutableGraph::rebind: the graph does not use the buffer to replace");
  }
}

}  // namespace plexus
