// Device defaults for backends that do not implement an operation, and the key functions
// of the device-side interfaces.
#include "plexus/device.hpp"

#include <string>

#include "plexus/backend.hpp"
#include "plexus/device_graph.hpp"
#include "plexus/error.hpp"
#include "plexus/task_body.hpp"

namespace plexus {

Device::~Device() = default;
DeviceKernel::~DeviceKernel() = default;
DeviceModule::~DeviceModule() = default;
DeviceQueue::~DeviceQueue() = default;
QueueMarker::~QueueMarker() = default;
OperationTiming::~OperationTiming() = default;
DeviceGraph::~DeviceGraph() = default;

void check_graph_replay(std::span<const GraphLaunch> launches, std::size_t recorded,
                        const std::function<const DeviceKernel*(std::size_t)>& recorded_kernel,
                        const std::string& graph) {
  if (launches.size() != recorded)
    throw error(error_category::invalid_argument,
                graph + ": " + std::to_string(launches.size()) + " launches given, " +
                    std::to_string(recorded) + " recorded");
  if (!recorded_kernel) return;
  for (std::size_t i = 0; i < launches.size(); ++i)
    if (launches[i].kernel != recorded_kernel(i))
      throw error(error_category::invalid_argument,
                  graph + ": launch " + std::to_string(i + 1) +
                      " has another kernel than the recorded one");
}
TaskBody::~TaskBody() = default;

void Device::unsupported(const char* operation) const {
  throw error(error_category::unsupported, "device '" + info().name + "' cannot " + operation +
                                               ": its backend does not implement it");
}

void* Device::allocate(std::size_t) { unsupported("allocate memory"); }

void Device::deallocate(void*) noexcept {}

std::string_view to_string(UsmKind kind) {
  switch (kind) {
    case UsmKind::device: return "device";
    case UsmKind::host: return "host";
    case UsmKind::shared: return "shared";
  }
  return "unknown";
}

void* Device::allocate_usm(UsmKind kind, std::size_t) {
  throw error(error_category::unsupported,
              "device '" + info().name + "' does not support USM " + std::string(to_string(kind)) +
                  " allocations (malloc_" + std::string(to_string(kind)) + ")");
}

void Device::deallocate_usm(UsmKind, void*) noexcept {}

bool DeviceQueue::copy_within_as_usm(void* allocation, std::size_t offset,
                                     const void* source_allocation, std::size_t source_offset,
                                     std::size_t bytes) {
  if (!allocation || !source_allocation)
    throw error(error_category::invalid_argument, "copy_within: a null allocation");
  usm_copy(static_cast<std::byte*>(allocation) + offset,
           static_cast<const std::byte*>(source_allocation) + source_offset, bytes);
  return true;
}

bool DeviceQueue::fill_within_as_usm(void* allocation, std::size_t offset, const void* pattern,
                                     std::size_t pattern_size, std::size_t bytes) {
  if (!allocation)
    throw error(error_category::invalid_argument, "fill_within: a null allocation");
  return usm_fill(static_cast<std::byte*>(allocation) + offset, pattern, pattern_size, bytes);
}

void DeviceQueue::usm_copy(void*, const void*, std::size_t) {
  throw error(error_category::unsupported,
              "this device's backend has no USM copies (DeviceQueue::usm_copy is not "
              "implemented)");
}

std::shared_ptr<DeviceModule> Device::load_module(BinaryFormat format, std::span<const std::byte>,
                                                  const std::vector<KernelInfo>&) {
  unsupported(("load " + std::string(to_string(format)) + " modules").c_str());
}

std::unique_ptr<DeviceQueue> Device::create_queue() { unsupported("create queues"); }

void DeviceQueue::launch_graph(DeviceGraph&, std::span<const GraphLaunch>) {
  throw error(error_category::unsupported,
              "this device's backend cannot replay device graphs (DeviceQueue::launch_graph is "
              "not implemented); launch the kernels one by one");
}

NativeHandles DeviceQueue::native_handles() {
  throw error(error_category::unsupported,
              "this device's backend gives its queues no native handles, so it runs no native "
              "tasks (DeviceQueue::native_handles is not implemented)");
}

void DeviceQueue::enqueue_native_call(const std::string& task, const NativeCall& call,
                                      std::span<void* const>) {
  throw error(error_category::unsupported,
              "native task '" + task + "' (function '" + call.function +
                  "'): this device's queue does not forward native functions to another "
                  "process (DeviceQueue::enqueue_native_call is not implemented)");
}

}  // namespace plexus
