// group_of_kernels: kernels of one device (command groups, in submission order) as one
// command group that runs them in order (CommandBody's replay: CommandGroup::graph), for
// command graphs (graph_submit) and automatic replay. Internal to the core.
//
// The group's requirements are the kernels' buffers, each once: the bounding range of its
// accesses, read while every access reads, discard_write while the first overwrites a range
// every later access stays inside, else read_write. Its dependencies are the kernels'
// explicit ones. `key` names the device graphs recorded for the kernels.
#pragma once

#include <memory>
#include <span>

#include "command_group.hpp"
#include "device_graph_cache.hpp"

namespace plexus::detail {

// Moves the kernels, arguments and dependencies out of `groups` (all kernels of one device).
CommandGroup group_of_kernels(std::span<CommandGroup* const> groups,
                              std::shared_ptr<const DeviceGraphKey> key);

}  // namespace plexus::detail
