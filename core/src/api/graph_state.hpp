// GraphState and ExecutableGraphState: what CommandGraph and ExecutableGraph refer to
// (graph.hpp). Internal to the core.
//
// A node is a recorded command group (moved out of its Handler as Queue::submit would have
// submitted it) with its name and its predecessor on an in-order queue. An executable graph
// is a copy of the nodes at finalize(); each submission copies them again (graph_submit),
// with the graph parameters' current values.
// Thread-safety: the nodes are under `mutex`; the rest is set at construction.
#pragma once

#include <cstddef>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "command_group.hpp"
#include "device_graph_cache.hpp"

namespace plexus::detail {

class QueueState;
class RuntimeState;

struct GraphNode {
  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  CommandGroup group;
  std::string name;
  std::size_t previous = none;  // the node recorded before it on the same in-order queue
};

class GraphState {
 public:
  // Records a command group submitted to `queue` (which records into this graph).
  void add(const QueueState& queue, CommandGroup group, std::string name);

  mutable std::mutex mutex;
  std::weak_ptr<RuntimeState> runtime;  // the recording queues' runtime (set by the first)
  bool has_runtime = false;
  std::vector<std::weak_ptr<QueueState>> queues;  // recording into it now
  std::vector<GraphNode> nodes;
  std::unordered_map<const QueueState*, std::size_t> last_on_queue;  // in-order queues
};

class ExecutableGraphState {
 public:
  ExecutableGraphState(std::weak_ptr<RuntimeState> owner, std::vector<GraphNode> recorded);

  // The nodes as the next submission runs them: graph parameters read now. Throws
  // invalid_argument naming the node when one of their buffers has been destroyed.
  std::vector<GraphNode> snapshot() const;
  // Throws invalid_argument naming the first node that uses a destroyed buffer.
  static void check_buffers(const std::vector<GraphNode>& nodes, const char* what);

  const std::weak_ptr<RuntimeState> runtime;
  const std::shared_ptr<const DeviceGraphKey> key;  // its device graphs (single_task)
  // Every node a kernel of `device`: the graph runs as one task there (graph_submit).
  bool single_task = false;
  Device* device = nullptr;

  mutable std::mutex mutex;
  std::vector<GraphNode> nodes;  // rebind() changes their buffers
};

// Queue::submit's hook: records `group` (moved from) into the graph `queue` records into and
// returns true; false (group untouched) when the queue no longer records.
bool record_group(QueueState& queue, CommandGroup& group, const std::string& name);

}  // namespace plexus::detail
