#include "tasks_per_device.hpp"

#include "plexus/count_option.hpp"

namespace plexus::heft {

namespace {

constexpr const char* key = "tasks_per_device";
constexpr const char* what_to_give =
    ": give \"auto\" (the default: 4 kernels at once on a GPU or accelerator, 1 on a CPU) or an "
    "integer from 1 to 64 (that many on every device)";

}  // namespace

TasksPerDevice tasks_per_device_option(const ComponentOptions& options) {
  return {auto_or_count_option(options, key, max_tasks_per_device, what_to_give)};
}

std::size_t tasks_per_device_for(const TasksPerDevice& option, const DeviceInfo& info) {
  if (option.count > 0) return option.count;
  switch (info.type) {
    case DeviceType::gpu:
    case DeviceType::accelerator: return auto_tasks_on_gpu;
    case DeviceType::cpu:
    case DeviceType::other: return auto_tasks_on_cpu;
  }
  return auto_tasks_on_cpu;
}

}  // namespace plexus::heft
