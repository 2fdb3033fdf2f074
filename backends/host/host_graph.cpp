#include "host_graph.hpp"

#include <string>

#include "host_device.hpp"
#include "host_module.hpp"
#include "plexus/error.hpp"

namespace plexus::host {

HostGraph::HostGraph(HostDevice& device, std::span<const GraphLaunch> launches) : device_(device) {
  prepared_.reserve(launches.size());
  for (const GraphLaunch& launch : launches) {
    prepared_.push_back(
        prepare_launch(device, host_kernel_of(device, *launch.kernel), launch.range,
                       launch.arguments));
  }
}

void HostGraph::run(std::span<const GraphLaunch> launches) {
  check_graph_replay(launches, prepared_.size(), nullptr, "host graph replay");
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& given = launches[i].arguments;
    const ArgumentBlock& recorded = prepared_[i].block;
    bool same = given.size() == recorded.size() && launches[i].kernel == prepared_[i].kernel;
    for (std::size_t a = 0; same && a < given.size(); ++a)
      same = given[a].kind != KernelArgumentKind::scalar || given[a].size <= recorded.capacity(a);
    if (!same)
      throw error(error_category::invalid_argument,
                  "host graph replay: launch " + std::to_string(i + 1) +
                      " differs from the recorded one (kernel or arguments)");
  }
  for (std::size_t i = 0; i < launches.size(); ++i) {
    prepared_[i].block.update(launches[i].arguments);
    run_prepared(device_, prepared_[i]);
  }
}

}  // namespace plexus::host
