// CudaGraph: the cuda backend's device graph (plexus/device_graph.hpp): a CUDA graph with
// one kernel node per launch, each depending on the one before (cuGraphCreate,
// cuGraphAddKernelNode), instantiated once (cuGraphInstantiate). A replay updates the nodes
// whose parameter values changed (cuGraphExecKernelNodeSetParams: a scalar, or an
// allocation after a rebind) and launches the whole graph with one cuGraphLaunch.
// The driver entry points are optional (CudaDriver::has_graphs): without them the queue
// records no graph and the kernels are launched one by one.
// Thread-safety: one thread at a time (the queue's). Ownership: owns the CUgraph and its
// executable; must not outlive the device's context (a replay still running when it goes is
// freed by the driver afterwards).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <span>
#include <vector>

#include "plexus/device_graph.hpp"

namespace plexus::cuda {

class CudaDevice;

class CudaGraph final : public DeviceGraph {
 public:
  // With the device's context current. Throws as CudaQueue::launch for a bad launch, and
  // plexus::error(device) when the driver refuses the graph.
  CudaGraph(CudaDevice& device, std::span<const GraphLaunch> launches);
  ~CudaGraph() override;

  // Replays the graph on `stream` with `launches`' argument values (the same kernels and
  // ranges as recorded: invalid_argument otherwise), with the context current.
  void launch(CUstream stream, std::span<const GraphLaunch> launches);

 private:
  struct Node {
    CUgraphNode node = nullptr;
    const DeviceKernel* kernel = nullptr;
    std::vector<std::byte> values;  // the parameters' bytes as last set
  };

  CudaDevice& device_;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
  std::vector<Node> nodes_;
};

}  // namespace plexus::cuda
