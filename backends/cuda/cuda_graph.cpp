#include "cuda_graph.hpp"

#include <cstring>
#include <string>

#include "cuda_device.hpp"
#include "cuda_launch_plan.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_parameters.hpp"

namespace plexus::cuda {
namespace {

CUDA_KERNEL_NODE_PARAMS node_parameters(const LaunchPlan& plan) {
  CUDA_KERNEL_NODE_PARAMS parameters{};
  parameters.func = plan.launch.function;
  parameters.gridDimX = plan.launch.grid[0];
  parameters.gridDimY = plan.launch.grid[1];
  parameters.gridDimZ = plan.launch.grid[2];
  parameters.blockDimX = plan.launch.block[0];
  parameters.blockDimY = plan.launch.block[1];
  parameters.blockDimZ = plan.launch.block[2];
  parameters.sharedMemBytes = plan.launch.shared_bytes;
  parameters.kernelParams = plan.parameters.params();
  return parameters;
}

}  // namespace

CudaGraph::CudaGraph(CudaDevice& device, std::span<const GraphLaunch> launches)
    : device_(device) {
  const CudaDriver& driver = device.driver();
  driver.check("cuGraphCreate", driver.graph_create(&graph_, 0));
  try {
    CUgraphNode previous = nullptr;
    for (const GraphLaunch& launch : launches) {
      LaunchPlan plan;
      plan_launch(device, *launch.kernel, launch.range, launch.arguments, plan);
      const CUDA_KERNEL_NODE_PARAMS parameters = node_parameters(plan);
      Node node;
      node.kernel = launch.kernel;
      driver.check("cuGraphAddKernelNode",
                   driver.graph_add_kernel_node(&node.node, graph_, previous ? &previous : nullptr,
                                                previous ? 1 : 0, &parameters));
      node.values = parameter_value_bytes(launch.arguments, plan.parameters.params());
      previous = node.node;
      nodes_.push_back(std::move(node));
    }
    driver.check("cuGraphInstantiate", driver.graph_instantiate(&exec_, graph_, 0));
  } catch (...) {
    driver.graph_destroy(graph_);
    throw;
  }
}

CudaGraph::~CudaGraph() {
  const CudaDriver& driver = device_.driver();
  if (exec_) driver.graph_exec_destroy(exec_);
  driver.graph_destroy(graph_);
}

void CudaGraph::launch(CUstream stream, std::span<const GraphLaunch> launches) {
  const CudaDriver& driver = device_.driver();
  check_graph_replay(launches, nodes_.size(), [&](std::size_t i) { return nodes_[i].kernel; },
                     "CUDA graph replay");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const GraphLaunch& launch = launches[i];
    LaunchPlan plan;
    plan_launch(device_, *launch.kernel, launch.range, launch.arguments, plan);
    std::vector<std::byte> values = parameter_value_bytes(launch.arguments, plan.parameters.params());
    if (values == nodes_[i].values) continue;
    const CUDA_KERNEL_NODE_PARAMS parameters = node_parameters(plan);
    driver.check("cuGraphExecKernelNodeSetParams",
                 driver.graph_exec_kernel_node_set_params(exec_, nodes_[i].node, &parameters));
    nodes_[i].values = std::move(values);
  }
  driver.check("cuGraphLaunch", driver.graph_launch(exec_, stream));
}

}  // namespace plexus::cuda
