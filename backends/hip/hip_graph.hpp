// HipGraph: the hip backend's device graph (plexus/device_graph.hpp), as the cuda backend's:
// a HIP graph with one kernel node per launch, each depending on the one before
// (hipGraphCreate, hipGraphAddKernelNode with the module's hipFunction_t), instantiated once
// (hipGraphInstantiate). A replay updates the nodes whose parameter values changed
// (hipGraphExecKernelNodeSetParams: a scalar, or an allocation after a rebind) and launches
// the whole graph with one hipGraphLaunch.
// record() returns nullptr where the runtime refuses a module kernel in a graph node
// (hipErrorInvalidDeviceFunction: HIP runtimes before ROCm/hip#2450's fix): the queue then
// has no graphs and launches one by one.
// Thread-safety: one thread at a time (the queue's), with the device current. Ownership:
// owns the hipGraph_t and its executable; must not outlive the device.
#pragma once

#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "plexus/device_graph.hpp"

namespace plexus::hip {

class HipDevice;

class HipGraph final : public DeviceGraph {
 public:
  // Throws as HipQueue::launch for a bad launch, and plexus::error(device) when the runtime
  // refuses the graph otherwise.
  static std::unique_ptr<HipGraph> record(const HipDevice& device,
                                          std::span<const GraphLaunch> launches);
  ~HipGraph() override;

  // Replays the graph on `stream` with `launches`' argument values (the same kernels and
  // ranges as recorded: invalid_argument otherwise).
  void launch(hipStream_t stream, std::span<const GraphLaunch> launches);

 private:
  struct Node {
    hipGraphNode_t node = nullptr;
    const DeviceKernel* kernel = nullptr;
    std::vector<std::byte> values;  // the parameters' bytes as last set
  };

  explicit HipGraph(const HipDevice& device) : device_(device) {}

  const HipDevice& device_;
  hipGraph_t graph_ = nullptr;
  hipGraphExec_t exec_ = nullptr;
  std::vector<Node> nodes_;
};

}  // namespace plexus::hip
