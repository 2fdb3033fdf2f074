// scheduler/heft's option tasks_per_device: how many kernels one device runs at once.
//   "auto" (the default): 4 on a GPU or an accelerator, whose cores one small kernel leaves
//   mostly idle (tiled Cholesky on an H100: 945 ms with 1, 513 ms with 4, docs/benchmarks.md);
//   1 on a CPU or another device, whose backend already spreads one kernel over its threads.
//   An integer >= 1: that many on every device (the behaviour before "auto").
// tasks_per_device_option reads the option; anything else (0, a negative number, another
// string, another type) is plexus::error(config) naming the key, the value and what to give.
// Thread-safety: free functions over their arguments only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plexus/component_options.hpp"
#include "plexus/device_info.hpp"

namespace plexus::heft {

struct TasksPerDevice {
  std::size_t count = 0;  // 0: "auto", by the device's type
};

inline constexpr std::size_t auto_tasks_on_gpu = 4;  // DeviceType gpu and accelerator
inline constexpr std::size_t auto_tasks_on_cpu = 1;  // DeviceType cpu and other
inline constexpr std::int64_t max_tasks_per_device = 64;  // the option's range: 1 to this

TasksPerDevice tasks_per_device_option(const ComponentOptions& options);

// The number of kernels at once on a device described by `info`: >= 1.
std::size_t tasks_per_device_for(const TasksPerDevice& option, const DeviceInfo& info);

}  // namespace plexus::heft
