#include "tasks_per_device.hpp"

#include <cstdint>
#include <optional>
#include <string>

#include "plexus/error.hpp"

namespace plexus::heft {

namespace {

constexpr const char* key = "tasks_per_device";
constexpr const char* what_to_give =
    ": give \"auto\" (the default: 4 kernels at once on a GPU or accelerator, 1 on a CPU) or an "
    "integer >= 1 (that many on every device)";

}  // namespace

TasksPerDevice tasks_per_device_option(const ComponentOptions& options) {
  std::optional<std::int64_t> count;
  try {
    count = options.find<std::int64_t>(key);
  } catch (const error& not_integer) {
    // An integer or a string: ComponentOptions reads one type, so try the other.
    std::optional<std::string> text;
    try {
      text = options.find<std::string>(key);
    } catch (const error&) {
      throw error(error_category::config, std::string(not_integer.what()) + what_to_give);
    }
    if (*text == "auto") return {};
    options.error(key, "is \"" + *text + "\"" + what_to_give);
  }
  if (!count) return {};
  if (*count < 1) options.error(key, "is " + std::to_string(*count) + what_to_give);
  return {static_cast<std::size_t>(*count)};
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
