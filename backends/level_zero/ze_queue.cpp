#include "ze_queue.hpp"

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "ze_device.hpp"
#include "ze_graph.hpp"
#include "ze_launch.hpp"
#include "ze_marker.hpp"
#include "ze_module.hpp"

namespace plexus::level_zero {
namespace {

// Operations in flight before the queue waits for the older half of them on the host (so
// that a caller that never waits does not make the event pools grow without bound).
constexpr std::size_t most_in_flight = 4096;

}  // namespace

ZeQueue::ZeQueue(ZeDevice& device) : device_(device) {
  ze_command_queue_desc_t description{};
  description.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  description.ordinal = device.compute_ordinal();
  description.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  description.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  if (const ze_result_t result = device.loader().command_list_create_immediate(
          device.context(), device.handle(), &description, &list_);
      result != ZE_RESULT_SUCCESS)
    device.fail("creating a queue", "zeCommandListCreateImmediate", result);
  completions_ = std::make_unique<CompletionThread>();
}

ZeQueue::~ZeQueue() {
  std::shared_ptr<ZeEvent> last;
  {
    std::lock_guard lock(mutex_);
    last = last_;
  }
  const ZeLoader& loader = device_.loader();
  if (last) loader.event_host_synchronize(last->handle, wait_forever);
  completions_.reset();  // serves the callbacks still queued
  {
    std::lock_guard lock(mutex_);
    in_flight_.clear();
    last_.reset();
  }
  timing_.reset();
  graph_queue_.reset();  // destroyed here unless a graph still holds it
  loader.command_list_destroy(list_);
}

ZeQueue::Step ZeQueue::begin(ze_event_handle_t extra) {
  Step step;
  if (failed()) return step;  // skipped: the kept failure is reported by wait/on_complete
  step.signal = device_.events(timing_ != nullptr).acquire();
  std::lock_guard lock(mutex_);
  if (last_) step.waits[step.wait_count++] = last_->handle;
  if (extra) step.waits[step.wait_count++] = extra;
  return step;
}

void ZeQueue::commit(Step& step, ze_result_t result, const char* call, const std::string& what,
                     std::shared_ptr<const void> keep, bool refused) {
  if (result != ZE_RESULT_SUCCESS) {
    step.signal.reset();  // never appended: nothing waits for it
    const bool bad = refused || result == ZE_RESULT_ERROR_INVALID_ARGUMENT ||
                     result == ZE_RESULT_ERROR_INVALID_SIZE ||
                     result == ZE_RESULT_ERROR_INVALID_NULL_POINTER ||
                     result == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT ||
                     result == ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    throw error(bad ? error_category::invalid_argument : error_category::device,
                "Level Zero device '" + device_.info().name + "': " + what + ": " +
                    ZeLoader::describe_failure(call, result));
  }
  if (timing_) timing_->add(step.signal);
  std::shared_ptr<ZeEvent> oldest;
  std::uint64_t oldest_sequence = 0;
  {
    std::lock_guard lock(mutex_);
    last_ = step.signal;
    in_flight_.push_back({++sequence_, std::move(step.signal), std::move(keep)});
    if (in_flight_.size() > most_in_flight) {
      const InFlight& middle = in_flight_[in_flight_.size() / 2];
      oldest = middle.event;
      oldest_sequence = middle.sequence;
    }
  }
  if (oldest) {
    settle(oldest_sequence, device_.loader().event_host_synchronize(oldest->handle, wait_forever));
  }
}

void ZeQueue::settle(std::uint64_t sequence, ze_result_t result) {
  std::deque<InFlight> done;  // released outside the lock (resetting events calls the driver)
  std::lock_guard lock(mutex_);
  while (!in_flight_.empty() && in_flight_.front().sequence <= sequence) {
    done.push_back(std::move(in_flight_.front()));
    in_flight_.pop_front();
  }
  if (result != ZE_RESULT_SUCCESS && !failure_)
    failure_ = std::make_exception_ptr(error(
        error_category::device, "Level Zero device '" + device_.info().name +
                                    "': an operation failed on the device: " +
                                    ZeLoader::describe_failure("zeEventHostSynchronize", result)));
  // `done` goes after the lock is released: declared before the guard.
}

std::exception_ptr ZeQueue::take_failure() {
  std::lock_guard lock(mutex_);
  return std::exchange(failure_, nullptr);
}

bool ZeQueue::failed() const {
  std::lock_guard lock(mutex_);
  return failure_ != nullptr;
}

void ZeQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                     std::span<const KernelArgument> arguments) {
  PreparedLaunch prepared = prepare_launch(device_, kernel, range, arguments);
  Step step = begin();
  if (!step.signal) return;
  const ze_result_t result = device_.loader().command_list_append_launch_kernel(
      list_, prepared.kernel->handle(), &prepared.groups, step.signal->handle, step.wait_count,
      step.waits.data());
  prepared.lock.unlock();
  if (result == ZE_RESULT_SUCCESS) return commit(step, result, "zeCommandListAppendLaunchKernel", {});
  commit(step, result, "zeCommandListAppendLaunchKernel", "launch of '" + kernel.info().name + "'",
         {},
         result == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION ||
             result == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
}

NativeHandles ZeQueue::native_handles() {
  return {"level_zero", NativeHandle::of(device_.context()), NativeHandle::of(list_),
          NativeHandle::of(device_.handle())};
}

void ZeQueue::enqueue_native(const std::function<void(const NativeHandles&)>& work) {
  const ZeLoader& loader = device_.loader();
  Step before = begin();
  if (!before.signal) return;
  commit(before,
         loader.command_list_append_barrier(list_, before.signal->handle, before.wait_count,
                                            before.waits.data()),
         "zeCommandListAppendBarrier", "before a native task");
  work(native_handles());
  // A barrier without wait events waits for every command appended before it: the work's.
  Step after = begin();
  if (!after.signal) return;
  commit(after, loader.command_list_append_barrier(list_, after.signal->handle, 0, nullptr),
         "zeCommandListAppendBarrier", "after a native task");
}

void ZeQueue::wait() {
  std::shared_ptr<ZeEvent> last;
  std::uint64_t sequence = 0;
  {
    std::lock_guard lock(mutex_);
    last = last_;
    sequence = sequence_;
  }
  if (last) settle(sequence, device_.loader().event_host_synchronize(last->handle, wait_forever));
  if (std::exception_ptr failure = take_failure()) std::rethrow_exception(failure);
}

void ZeQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  std::shared_ptr<ZeEvent> last;
  std::uint64_t sequence = 0;
  {
    std::lock_guard lock(mutex_);
    last = last_;
    sequence = sequence_;
  }
  if (!last) return done(take_failure());
  completions_->add(
      [this, last = std::move(last), sequence] {
        settle(sequence, device_.loader().event_host_synchronize(last->handle, wait_forever));
        return take_failure();
      },
      std::move(done));
}

std::shared_ptr<const QueueMarker> ZeQueue::mark() { return mark_from_any_thread(); }

std::shared_ptr<const QueueMarker> ZeQueue::mark_from_any_thread() {
  std::lock_guard lock(mutex_);
  return std::make_shared<ZeMarker>(device_, last_);
}

bool ZeQueue::wait_for(const QueueMarker& marker) {
  const auto* recorded = dynamic_cast<const ZeMarker*>(&marker);
  if (!recorded || &recorded->device() != &device_) return false;
  if (!recorded->event()) return true;  // marked before any operation: reached
  Step step = begin(recorded->event()->handle);
  if (!step.signal) return true;
  commit(step,
         device_.loader().command_list_append_barrier(list_, step.signal->handle, step.wait_count,
                                                      step.waits.data()),
         "zeCommandListAppendBarrier", "ordering a queue behind another", recorded->event());
  return true;
}

bool ZeQueue::enable_timing() {
  if (!timing_) timing_ = std::make_unique<ZeTiming>(device_);
  return true;
}

std::shared_ptr<const OperationTiming> ZeQueue::take_timing() {
  return timing_ ? timing_->take() : nullptr;
}

std::unique_ptr<DeviceGraph> ZeQueue::record_graph(std::span<const GraphLaunch> launches) {
  const char* enabled = std::getenv("PLEXUS_LEVEL_ZERO_GRAPHS");
  if (enabled && std::string(enabled) == "0") return nullptr;
  return std::make_unique<ZeGraph>(*this, launches);
}

void ZeQueue::launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) {
  auto* recorded = dynamic_cast<ZeGraph*>(&graph);
  if (!recorded || &recorded->queue() != this)
    throw error(error_category::invalid_argument,
                "Level Zero device '" + device_.info().name +
                    "': launch_graph was given a graph that another queue recorded");
  recorded->replay(launches);
}

std::shared_ptr<ZeCommandQueue> ZeQueue::graph_queue() {
  if (!graph_queue_) {
    ze_command_queue_desc_t description{};
    description.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
    description.ordinal = device_.compute_ordinal();
    description.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    description.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
    auto made = std::make_shared<ZeCommandQueue>(device_.loader());
    if (const ze_result_t result = device_.loader().command_queue_create(
            device_.context(), device_.handle(), &description, &made->handle);
        result != ZE_RESULT_SUCCESS)
      device_.fail("creating the command queue for graphs", "zeCommandQueueCreate", result);
    graph_queue_ = std::move(made);
  }
  return graph_queue_;
}

}  // namespace plexus::level_zero
