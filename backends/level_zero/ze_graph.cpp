#include "ze_graph.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "ze_device.hpp"
#include "ze_launch.hpp"
#include "ze_module.hpp"
#include "ze_queue.hpp"

namespace plexus::level_zero {
namespace {

// The bytes a launch's arguments pass: addresses, scalars' values, __local sizes.
std::vector<std::byte> argument_bytes(std::span<const KernelArgument> arguments) {
  std::vector<std::byte> bytes;
  for (const KernelArgument& argument : arguments) {
    const auto* first = reinterpret_cast<const std::byte*>(&argument.allocation);
    std::size_t size = sizeof argument.allocation;
    if (argument.kind == KernelArgumentKind::scalar) {
      first = static_cast<const std::byte*>(argument.value);
      size = argument.size;
    } else if (argument.kind == KernelArgumentKind::local) {
      first = reinterpret_cast<const std::byte*>(&argument.size);
      size = sizeof argument.size;
    }
    bytes.insert(bytes.end(), first, first + size);
  }
  return bytes;
}

}  // namespace

struct ZeGraph::Parts {
  const ZeDevice& device;
  std::shared_ptr<ZeCommandQueue> queue;  // declared first: destroyed after the fence
  ze_command_list_handle_t list = nullptr;
  ze_fence_handle_t fence = nullptr;
  std::shared_ptr<ZeEvent> start, done;
  bool executed = false;  // the fence belongs to a replay

  explicit Parts(const ZeDevice& owner) : device(owner) {}
  ~Parts() {
    const ZeLoader& loader = device.loader();
    if (fence) {
      if (executed) loader.fence_host_synchronize(fence, wait_forever);
      loader.fence_destroy(fence);
    }
    if (list) loader.command_list_destroy(list);
  }
};

ZeGraph::ZeGraph(ZeQueue& queue, std::span<const GraphLaunch> launches)
    : queue_(queue), parts_(std::make_shared<Parts>(queue.device())) {
  parts_->queue = queue.graph_queue();
  ZeDevice& device = queue.device();
  const ZeLoader& loader = device.loader();
  ze_command_list_desc_t description{};
  description.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  description.commandQueueGroupOrdinal = device.compute_ordinal();
  if (const ze_result_t result = loader.command_list_create(device.context(), device.handle(),
                                                            &description, &parts_->list);
      result != ZE_RESULT_SUCCESS)
    device.fail("recording a graph", "zeCommandListCreate", result);
  ze_fence_desc_t fence{};
  fence.stype = ZE_STRUCTURE_TYPE_FENCE_DESC;
  if (const ze_result_t result =
          loader.fence_create(parts_->queue->handle, &fence, &parts_->fence);
      result != ZE_RESULT_SUCCESS)
    device.fail("recording a graph", "zeFenceCreate", result);
  parts_->start = device.events(false).acquire();
  parts_->done = device.events(false).acquire();
  for (const GraphLaunch& launch : launches) kernels_.push_back(launch.kernel);
  record(launches);
}

ZeGraph::~ZeGraph() = default;

void ZeGraph::record(std::span<const GraphLaunch> launches) {
  ZeDevice& device = queue_.device();
  const ZeLoader& loader = device.loader();
  const ze_command_list_handle_t list = parts_->list;
  const auto append = [&](const char* call, ze_result_t result) {
    if (result != ZE_RESULT_SUCCESS) device.fail("recording a graph", call, result);
  };
  ze_event_handle_t start = parts_->start->handle;
  append("zeCommandListAppendWaitOnEvents",
         loader.command_list_append_wait_on_events(list, 1, &start));
  values_.clear();
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const GraphLaunch& launch = launches[i];
    PreparedLaunch prepared = prepare_launch(device, *launch.kernel, launch.range, launch.arguments);
    const ze_result_t result = loader.command_list_append_launch_kernel(
        list, prepared.kernel->handle(), &prepared.groups, nullptr, 0, nullptr);
    prepared.lock.unlock();
    append("zeCommandListAppendLaunchKernel", result);
    // Each launch after the previous one; the last barrier signals the end of the graph.
    append("zeCommandListAppendBarrier",
           loader.command_list_append_barrier(
               list, i + 1 == launches.size() ? parts_->done->handle : nullptr, 0, nullptr));
    values_.push_back(argument_bytes(launch.arguments));
  }
  if (launches.empty())
    append("zeCommandListAppendBarrier",
           loader.command_list_append_barrier(list, parts_->done->handle, 0, nullptr));
  append("zeCommandListClose", loader.command_list_close(list));
}

void ZeGraph::replay(std::span<const GraphLaunch> launches) {
  ZeDevice& device = queue_.device();
  const ZeLoader& loader = device.loader();
  const std::string named = "Level Zero device '" + device.info().name + "': graph replay";
  check_graph_replay(launches, kernels_.size(), [&](std::size_t i) { return kernels_[i]; }, named);
  bool changed = false;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    changed = changed || argument_bytes(launches[i].arguments) != values_[i];
  }
  // The previous replay must be over: the list done (fence) and `done` seen by the queue.
  if (previous_) loader.event_host_synchronize(previous_->handle, wait_forever);
  if (parts_->executed) {
    if (const ze_result_t result = loader.fence_host_synchronize(parts_->fence, wait_forever);
        result != ZE_RESULT_SUCCESS)
      device.fail("graph replay: the previous replay", "zeFenceHostSynchronize", result);
    loader.fence_reset(parts_->fence);
    parts_->executed = false;
  }
  loader.event_host_reset(parts_->start->handle);
  loader.event_host_reset(parts_->done->handle);
  if (changed) {
    if (const ze_result_t result = loader.command_list_reset(parts_->list);
        result != ZE_RESULT_SUCCESS)
      device.fail("graph replay: recording new argument values", "zeCommandListReset", result);
    record(launches);
  }

  // The immediate list: a timed barrier after the earlier operations, then `start`.
  ZeQueue::Step step = queue_.begin();
  if (!step.signal) return;  // a kept failure: skipped like any operation
  std::shared_ptr<ZeEvent> begun = step.signal;
  queue_.commit(step,
                loader.command_list_append_barrier(queue_.list(), step.signal->handle,
                                                   step.wait_count, step.waits.data()),
                "zeCommandListAppendBarrier", "graph replay");
  if (const ze_result_t result =
          loader.command_list_append_barrier(queue_.list(), parts_->start->handle, 1, &begun->handle);
      result != ZE_RESULT_SUCCESS)
    device.fail("graph replay", "zeCommandListAppendBarrier", result);
  ze_command_list_handle_t list = parts_->list;
  if (const ze_result_t result =
          loader.command_queue_execute_command_lists(parts_->queue->handle, 1, &list, parts_->fence);
      result != ZE_RESULT_SUCCESS)
    device.fail("graph replay", "zeCommandQueueExecuteCommandLists", result);
  parts_->executed = true;
  // The immediate list's next operations wait for the graph's end.
  ZeQueue::Step end = queue_.begin(parts_->done->handle);
  if (!end.signal) return;
  std::shared_ptr<ZeEvent> ended = end.signal;
  queue_.commit(end,
                loader.command_list_append_barrier(queue_.list(), end.signal->handle,
                                                   end.wait_count, end.waits.data()),
                "zeCommandListAppendBarrier", "graph replay", parts_);
  previous_ = std::move(ended);
}

}  // namespace plexus::level_zero
