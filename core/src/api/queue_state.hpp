// QueueState: what a Queue handle refers to (internal to the core). Thread-safety: the
// event bookkeeping is under `mutex` (`fusing` mirrors the fusion state for lock-free
// reads); the rest is immutable.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "auto_graph.hpp"
#include "device_graph_cache.hpp"
#include "fusion_session.hpp"
#include "pending_events.hpp"

#include "plexus/queue.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class RuntimeState;
class GraphState;

class QueueState {
 public:
  QueueState(std::weak_ptr<RuntimeState> owner, Device& target, QueueOrder queue_order,
             bool bound_to_device = true)
      : runtime(std::move(owner)), device(&target), order(queue_order), bound(bound_to_device) {}
  // Submits what automatic replay still holds (auto_replay.cpp): the last handle going must
  // not drop submitted work.
  ~QueueState();
  QueueState(const QueueState&) = delete;
  QueueState& operator=(const QueueState&) = delete;

  const std::weak_ptr<RuntimeState> runtime;
  Device* const device;
  const QueueOrder order;
  // Made for `device` (Runtime::queue(device)); false for Runtime::queue(), whose native
  // tasks may run on another device when `device` has no implementation of theirs.
  const bool bound;

  // In order: held from taking `last` until the scheduler has the group, so that groups are
  // recorded in the memory model in queue order (else two threads could record them in the
  // opposite order and each wait for the other).
  std::mutex submit_mutex;
  std::mutex mutex;
  std::shared_ptr<TaskEvent> last;                  // the previous command group's event
  PendingEvents pending;                            // not yet seen done
  std::shared_ptr<FusionSession> fusion;  // the current or last fusion (fusion_session.hpp)
  // fusion && fusion->active, written under `mutex`, read without it (in_fusion(), at every
  // submit).
  std::atomic<bool> fusing{false};
  // The command graph this queue records into (graph.hpp), under `mutex`; `recording`
  // mirrors it for lock-free reads at every submit.
  std::shared_ptr<GraphState> graph;
  std::atomic<bool> recording{false};
  // Automatic replay (auto_replay.hpp): set at construction on in-order queues when it is on;
  // used under submit_mutex, like the key of the pattern's device graphs.
  std::unique_ptr<AutoGraph> auto_graph;
  std::shared_ptr<DeviceGraphKey> auto_key;
  std::uint64_t auto_key_pattern = 0;
};

}  // namespace plexus::detail
