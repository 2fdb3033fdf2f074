#include "hip_queue.hpp"

#include <algorithm>
#include <cstdlib>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "hip_device.hpp"
#include "hip_device_scope.hpp"
#include "hip_graph.hpp"
#include "hip_launch_plan.hpp"
#include "hip_marker.hpp"
#include "hip_module.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"

namespace plexus::hip {
namespace {


// Times one operation when timing is on: before() now, after() once it was enqueued.
class Timed {
 public:
  explicit Timed(HipTiming* timing) : timing_(timing) {
    if (timing_) timing_->before();
  }
  void done() {
    if (timing_) timing_->after();
  }

 private:
  HipTiming* timing_;
};

}  // namespace

HipQueue::HipQueue(HipDevice& device) : device_(device) {
  ScopedDevice scope(device.runtime(), device.ordinal());
  if (const hipError_t result =
          device.runtime().stream_create_with_flags(&stream_, hipStreamNonBlocking);
      result != hipSuccess)
    device.fail("creating a queue", "hipStreamCreateWithFlags", result);
  completions_ = std::make_unique<CompletionThread>();
}

HipQueue::~HipQueue() {
  try {
    ScopedDevice scope(device_.runtime(), device_.ordinal());
    (void)device_.runtime().stream_synchronize(stream_);
    completions_.reset();  // serves the callbacks still queued
    timing_.reset();
    (void)device_.runtime().stream_destroy(stream_);
  } catch (...) {
    // the device could not be made current: nothing more to release
  }
}

void HipQueue::check(hipError_t result, const char* call, const std::string& what) const {
  if (result == hipSuccess) return;
  const error_category category =
      result == hipErrorInvalidValue || result == hipErrorLaunchOutOfResources ||
              result == hipErrorInvalidConfiguration
          ? error_category::invalid_argument
          : error_category::device;
  throw error(category, "HIP device '" + device_.info().name + "': " + what + ": " +
                            device_.runtime().describe_failure(call, result));
}

void HipQueue::copy(void* destination, const void* source, const CopyLayout& layout,
                    const char* what) {
  const HipRuntime& runtime = device_.runtime();
  const std::string named = std::string(what) + " of " + std::to_string(layout.bytes()) + " bytes";
  char* to = static_cast<char*>(destination) + layout.offset;
  const char* from = static_cast<const char*>(source) + layout.offset;
  ScopedDevice scope(runtime, device_.ordinal());
  Timed timed(timing_.get());
  if (layout.rows == 1 && layout.slices == 1) {
    check(runtime.memcpy_async(to, from, layout.row_bytes, hipMemcpyDefault, stream_),
          "hipMemcpyAsync", named);
  } else {
    const std::size_t row_pitch = layout.rows > 1 ? layout.row_pitch : layout.row_bytes;
    for (std::size_t s = 0; s < layout.slices; ++s) {
      const std::size_t at = s * layout.slice_pitch;
      check(runtime.memcpy_2d_async(to + at, row_pitch, from + at, row_pitch, layout.row_bytes,
                                    layout.rows, hipMemcpyDefault, stream_),
            "hipMemcpy2DAsync", named);
    }
  }
  timed.done();
}

void HipQueue::copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) {
  validate_copy(layout, allocation, host_base, allocation ? device_.bytes_after(allocation) : 0,
                "HIP device '" + device_.info().name + "': copy_to_device");
  copy(allocation, host_base, layout, "copy_to_device");
}

void HipQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  validate_copy(layout, allocation, host_base, allocation ? device_.bytes_after(allocation) : 0,
                "HIP device '" + device_.info().name + "': copy_to_host");
  copy(host_base, allocation, layout, "copy_to_host");
}

bool HipQueue::copy_from_device(void* allocation, Device& source, const void* source_allocation,
                                const CopyLayout& layout) {
  auto* from = dynamic_cast<HipDevice*>(&source);
  if (!from || &from->runtime() != &device_.runtime()) return false;
  const std::string what = "HIP device '" + device_.info().name + "': copy_from_device from '" +
                           from->info().name + "'";
  validate_copy(layout, allocation, source_allocation,
                allocation ? device_.bytes_after(allocation) : 0, what);
  validate_copy(layout, source_allocation, allocation,
                source_allocation ? from->bytes_after(source_allocation) : 0, what);
  if (from == &device_ || layout.rows > 1 || layout.slices > 1) {
    // Within the device, or a region: plain copies, which unified addressing routes; across
    // devices they need peer access (else the runtime stages: also correct, slower).
    if (from != &device_) device_.enable_peer_access(*from);
    copy(allocation, source_allocation, layout, "copy_from_device");
    return true;
  }
  device_.enable_peer_access(*from);  // best effort: hipMemcpyPeerAsync works either way
  const HipRuntime& runtime = device_.runtime();
  ScopedDevice scope(runtime, device_.ordinal());
  Timed timed(timing_.get());
  check(runtime.memcpy_peer_async(static_cast<char*>(allocation) + layout.offset, device_.ordinal(),
                                  static_cast<const char*>(source_allocation) + layout.offset,
                                  from->ordinal(), layout.row_bytes, stream_),
        "hipMemcpyPeerAsync", "copy_from_device");
  timed.done();
  return true;
}

void HipQueue::usm_copy(void* destination, const void* source, std::size_t bytes) {
  const std::string what = "USM copy of " + std::to_string(bytes) + " bytes";
  validate_usm_copy(destination, source, "HIP device '" + device_.info().name + "': " + what);
  if (bytes == 0) return;
  const HipRuntime& runtime = device_.runtime();
  ScopedDevice scope(runtime, device_.ordinal());
  Timed timed(timing_.get());
  check(runtime.memcpy_async(destination, source, bytes, hipMemcpyDefault, stream_),
        "hipMemcpyAsync", what);
  timed.done();
}

bool HipQueue::usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                        std::size_t bytes) {
  const std::string what = "USM fill of " + std::to_string(bytes) + " bytes";
  validate_usm_fill(destination, pattern, pattern_size, bytes,
                    "HIP device '" + device_.info().name + "': " + what);
  const auto address = reinterpret_cast<std::uintptr_t>(destination);
  if ((pattern_size != 1 && pattern_size != 2 && pattern_size != 4) || address % pattern_size != 0)
    return false;
  if (bytes == 0) return true;
  std::uint32_t value = 0;
  std::memcpy(&value, pattern, pattern_size);
  const HipRuntime& runtime = device_.runtime();
  const auto to = static_cast<hipDeviceptr_t>(destination);
  const std::size_t count = bytes / pattern_size;
  ScopedDevice scope(runtime, device_.ordinal());
  Timed timed(timing_.get());
  if (pattern_size == 4)
    check(runtime.memset_d32_async(to, static_cast<int>(value), count, stream_),
          "hipMemsetD32Async", what);
  else if (pattern_size == 2)
    check(runtime.memset_d16_async(to, static_cast<unsigned short>(value), count, stream_),
          "hipMemsetD16Async", what);
  else
    check(runtime.memset_d8_async(to, static_cast<unsigned char>(value), count, stream_),
          "hipMemsetD8Async", what);
  timed.done();
  return true;
}

void HipQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                      std::span<const KernelArgument> arguments) {
  HipLaunchPlan plan;
  plan_launch(device_, kernel, range, arguments, plan);
  const HipRuntime& runtime = device_.runtime();
  ScopedDevice scope(runtime, device_.ordinal());
  Timed timed(timing_.get());
  const hipError_t result = runtime.module_launch_kernel(
      plan.function, plan.grid[0], plan.grid[1], plan.grid[2], plan.block[0], plan.block[1],
      plan.block[2], plan.dynamic_lds, stream_, plan.parameters.params(), nullptr);
  if (result != hipSuccess) check(result, "hipModuleLaunchKernel", launch_name(device_, kernel));
  timed.done();
}

std::unique_ptr<DeviceGraph> HipQueue::record_graph(std::span<const GraphLaunch> launches) {
  const char* enabled = std::getenv("PLEXUS_HIP_GRAPHS");
  if (!device_.runtime().has_graphs() || (enabled && std::string(enabled) == "0")) return nullptr;
  ScopedDevice scope(device_.runtime(), device_.ordinal());
  return HipGraph::record(device_, launches);
}

void HipQueue::launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) {
  auto* recorded = dynamic_cast<HipGraph*>(&graph);
  if (!recorded)
    throw error(error_category::invalid_argument,
                "HIP device '" + device_.info().name +
                    "': launch_graph was given a graph that another backend recorded");
  ScopedDevice scope(device_.runtime(), device_.ordinal());
  Timed timed(timing_.get());
  recorded->launch(stream_, launches);
  timed.done();
}

NativeHandles HipQueue::native_handles() {
  return {"hip", NativeHandle{}, NativeHandle::of(stream_), NativeHandle::of(device_.ordinal())};
}

void HipQueue::enqueue_native(const std::function<void(const NativeHandles&)>& work) {
  ScopedDevice scope(device_.runtime(), device_.ordinal());
  Timed timed(timing_.get());
  work(native_handles());
  timed.done();
}

void HipQueue::wait() {
  ScopedDevice scope(device_.runtime(), device_.ordinal());
  if (const hipError_t result = device_.runtime().stream_synchronize(stream_); result != hipSuccess)
    throw error(error_category::device,
                "HIP device '" + device_.info().name +
                    "': " + device_.runtime().describe_failure("hipStreamSynchronize", result));
}

void HipQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  std::shared_ptr<HipEvent> event;
  try {
    event = HipEvent::make(device_, hipEventDisableTiming);
    ScopedDevice scope(device_.runtime(), device_.ordinal());
    check(device_.runtime().event_record(event->handle(), stream_), "hipEventRecord",
          "on_complete");
  } catch (...) {
    return done(std::current_exception());
  }
  completions_->add(
      [this, event = std::move(event)]() -> std::exception_ptr {
        ScopedDevice scope(device_.runtime(), device_.ordinal());
        const hipError_t result = device_.runtime().event_synchronize(event->handle());
        if (result == hipSuccess) return nullptr;
        return std::make_exception_ptr(
            error(error_category::device,
                  "HIP device '" + device_.info().name + "': an operation failed on the device: " +
                      device_.runtime().describe_failure("hipEventSynchronize", result)));
      },
      std::move(done));
}

std::shared_ptr<const QueueMarker> HipQueue::mark() { return mark_from_any_thread(); }

std::shared_ptr<const QueueMarker> HipQueue::mark_from_any_thread() {
  auto event = HipEvent::make(device_, hipEventDisableTiming);
  ScopedDevice scope(device_.runtime(), device_.ordinal());
  check(device_.runtime().event_record(event->handle(), stream_), "hipEventRecord", "mark");
  return std::make_shared<HipMarker>(std::move(event));
}

bool HipQueue::wait_for(const QueueMarker& marker) {
  const auto* recorded = dynamic_cast<const HipMarker*>(&marker);
  if (!recorded || &recorded->event().device() != &device_) return false;
  ScopedDevice scope(device_.runtime(), device_.ordinal());
  check(device_.runtime().stream_wait_event(stream_, recorded->event().handle(), 0),
        "hipStreamWaitEvent", "ordering a queue behind another");
  return true;
}

bool HipQueue::enable_timing() {
  if (!timing_) timing_ = std::make_unique<HipTiming>(device_, stream_);
  return true;
}

std::shared_ptr<const OperationTiming> HipQueue::take_timing() {
  return timing_ ? timing_->take() : nullptr;
}

}  // namespace plexus::hip
