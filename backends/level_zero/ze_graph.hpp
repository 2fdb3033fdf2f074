// ZeGraph: the level_zero backend's device graph (plexus/device_graph.hpp): the launches in
// one regular command list (zeCommandListCreate), a barrier between each two, closed once and
// executed as one operation on the queue's graph command queue
// (zeCommandQueueExecuteCommandLists, with a fence). The list first waits for a `start`
// event that the queue's immediate list signals after its earlier operations, and ends by
// signalling `done`, which the immediate list's next operation waits for: the replay sits
// in the queue's order.
//
// A regular command list keeps the argument values it was recorded with, so a replay with
// other values (a scalar, an allocation after a rebind) resets the list and records it
// again. Before a replay the previous one must be over (the fence, and the queue having
// passed `done`): the host waits for it there, so replays of one graph do not overlap.
//
// Thread-safety: one thread at a time (the queue's). Ownership: the list, fence and events
// live in a shared part that the queue's in-flight record of each replay also holds, so a
// graph destroyed during a replay is freed once the replay is over; they hold the command
// queue, so a graph may outlive the ZeQueue that recorded it (not its device).
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "plexus/device_graph.hpp"
#include "ze_events.hpp"

namespace plexus::level_zero {

class ZeDevice;
class ZeQueue;

class ZeGraph final : public DeviceGraph {
 public:
  // Checks and records `launches` for `queue`; throws as ZeQueue::launch for a bad launch,
  // plexus::error(device) when the driver refuses the list.
  ZeGraph(ZeQueue& queue, std::span<const GraphLaunch> launches);
  ~ZeGraph() override;

  // Enqueues a replay on the recording queue with `launches`' argument values (the same
  // kernels and ranges: invalid_argument otherwise).
  void replay(std::span<const GraphLaunch> launches);

  const ZeQueue& queue() const { return queue_; }

 private:
  struct Parts;
  void record(std::span<const GraphLaunch> launches);

  ZeQueue& queue_;
  std::shared_ptr<Parts> parts_;
  std::vector<const DeviceKernel*> kernels_;
  std::vector<std::vector<std::byte>> values_;  // each launch's argument bytes as recorded
  std::shared_ptr<ZeEvent> previous_;           // the immediate list's event after the last replay
};

}  // namespace plexus::level_zero
