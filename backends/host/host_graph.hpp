// HostGraph: the host backend's device graph (plexus/device_graph.hpp): the launches of a
// command graph validated and laid out once (work-group sizes, local blocks, argument
// blocks), so that a replay only writes the new argument values into the blocks and runs
// each launch's work-groups on the device's thread pool, one launch after another: no
// validation, no per-launch allocation of argument blocks, no scheduling in between.
// Thread-safety and ownership: see device_graph.hpp (used by one queue's thread).
#pragma once

#include <span>
#include <vector>

#include "kernel_launch.hpp"
#include "plexus/device_graph.hpp"

namespace plexus::host {

class HostDevice;

class HostGraph final : public DeviceGraph {
 public:
  // Throws invalid_argument as run_kernel would for a bad launch.
  HostGraph(HostDevice& device, std::span<const GraphLaunch> launches);

  // Runs the launches with `launches`' argument values (invalid_argument when they do not
  // match the recorded kinds and sizes); errors while running as run_kernel's.
  void run(std::span<const GraphLaunch> launches);

 private:
  HostDevice& device_;
  std::vector<PreparedLaunch> prepared_;
};

}  // namespace plexus::host
