// Device graphs: the optional backend capability behind command graphs (graph.hpp) and
// automatic replay. A DeviceQueue that has it turns a list of kernel launches into a
// replayable object once (record_graph: a CUDA graph instantiated for the device, a host
// list with every launch validated and laid out), then replays it as one operation
// (launch_graph) as often as asked, with new argument values each time (scalars and
// allocations may change; kernels, ranges and argument kinds may not).
//
// A queue without the capability (the default) returns nullptr from record_graph; the
// caller then launches the list one by one with DeviceQueue::launch: the same operations
// in the same order, so the results, errors and events are the same.
//
// Thread-safety: a DeviceGraph is used by one thread at a time, the thread using the queue
// that recorded it. Ownership: owned by the caller of record_graph; launched only on the
// queue that recorded it; must not outlive that queue's device. Destroying it while a
// replay is still running on the device is allowed (the backend frees it afterwards).
#pragma once

#include <functional>
#include <span>
#include <string>

#include "plexus/device_module.hpp"
#include "plexus/export.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/nd_range.hpp"

namespace plexus {

// One kernel launch of a graph, as DeviceQueue::launch takes it.
struct GraphLaunch {
  const DeviceKernel* kernel = nullptr;
  NdRange range;
  std::span<const KernelArgument> arguments;
};

class PLEXUS_API DeviceGraph {
 public:
  DeviceGraph() = default;
  DeviceGraph(const DeviceGraph&) = delete;
  DeviceGraph& operator=(const DeviceGraph&) = delete;
  virtual ~DeviceGraph();
};

// For DeviceGraph implementations: checks a replay's launches against what was recorded, in
// order: as many launches as `recorded`, and (when `recorded_kernel` is given) launch i of
// the kernel recorded_kernel(i). Throws plexus::error(invalid_argument) "<graph>: N launches
// given, M recorded" or "<graph>: launch I has another kernel than the recorded one".
PLEXUS_API void check_graph_replay(std::span<const GraphLaunch> launches, std::size_t recorded,
                                   const std::function<const DeviceKernel*(std::size_t)>& recorded_kernel,
                                   const std::string& graph);

}  // namespace plexus
