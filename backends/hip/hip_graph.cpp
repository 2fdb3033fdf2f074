#include "hip_graph.hpp"

#include <string>

#include "hip_device.hpp"
#include "hip_launch_plan.hpp"
#include "plexus/error.hpp"

namespace plexus::hip {
namespace {

hipKernelNodeParams node_parameters(const HipLaunchPlan& plan) {
  hipKernelNodeParams parameters{};
  parameters.func = reinterpret_cast<void*>(plan.function);
  parameters.gridDim = dim3(plan.grid[0], plan.grid[1], plan.grid[2]);
  parameters.blockDim = dim3(plan.block[0], plan.block[1], plan.block[2]);
  parameters.sharedMemBytes = plan.dynamic_lds;
  parameters.kernelParams = plan.parameters.params();
  parameters.extra = nullptr;
  return parameters;
}

}  // namespace

std::unique_ptr<HipGraph> HipGraph::record(const HipDevice& device,
                                           std::span<const GraphLaunch> launches) {
  const HipRuntime& runtime = device.runtime();
  std::unique_ptr<HipGraph> graph(new HipGraph(device));
  runtime.check("hipGraphCreate", runtime.graph_create(&graph->graph_, 0));
  hipGraphNode_t previous = nullptr;
  for (const GraphLaunch& launch : launches) {
    HipLaunchPlan plan;
    plan_launch(device, *launch.kernel, launch.range, launch.arguments, plan);
    const hipKernelNodeParams parameters = node_parameters(plan);
    Node node;
    node.kernel = launch.kernel;
    const hipError_t added = runtime.graph_add_kernel_node(
        &node.node, graph->graph_, previous ? &previous : nullptr, previous ? 1 : 0, &parameters);
    if (added == hipErrorInvalidDeviceFunction) return nullptr;  // no module kernels in graphs
    runtime.check("hipGraphAddKernelNode", added);
    node.values = parameter_value_bytes(launch.arguments, plan.parameters.params());
    previous = node.node;
    graph->nodes_.push_back(std::move(node));
  }
  runtime.check("hipGraphInstantiate",
                runtime.graph_instantiate(&graph->exec_, graph->graph_, nullptr, nullptr, 0));
  return graph;
}

HipGraph::~HipGraph() {
  const HipRuntime& runtime = device_.runtime();
  if (exec_) (void)runtime.graph_exec_destroy(exec_);
  if (graph_) (void)runtime.graph_destroy(graph_);
}

void HipGraph::launch(hipStream_t stream, std::span<const GraphLaunch> launches) {
  const HipRuntime& runtime = device_.runtime();
  check_graph_replay(launches, nodes_.size(), [&](std::size_t i) { return nodes_[i].kernel; },
                     "HIP graph replay");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const GraphLaunch& launch = launches[i];
    HipLaunchPlan plan;
    plan_launch(device_, *launch.kernel, launch.range, launch.arguments, plan);
    std::vector<std::byte> values = parameter_value_bytes(launch.arguments, plan.parameters.params());
    if (values == nodes_[i].values) continue;
    const hipKernelNodeParams parameters = node_parameters(plan);
    runtime.check("hipGraphExecKernelNodeSetParams",
                  runtime.graph_exec_kernel_node_set_params(exec_, nodes_[i].node, &parameters));
    nodes_[i].values = std::move(values);
  }
  runtime.check("hipGraphLaunch", runtime.graph_launch(exec_, stream));
}

}  // namespace plexus::hip
