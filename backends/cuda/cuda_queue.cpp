#include "cuda_queue.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_graph.hpp"
#include "cuda_launch_plan.hpp"
#include "cuda_marker.hpp"
#include "cuda_module.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::cuda {
namespace {

// Names a launch in errors.
std::string launch_name(const DeviceKernel& kernel) {
  return "launch of '" + kernel.info().name + "'";
}

}  // namespace

CudaQueue::CudaQueue(CudaDevice& device) : device_(device), stats_(CudaQueueStats::if_enabled()) {
  ScopedContext scope(device.driver(), device.context());
  check(device.driver().stream_create(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate",
        "creating a queue");
  launcher_ = std::make_unique<CudaLauncher>(
      device, stream_, stats_.get(), [this](CUresult result, const DeviceKernel& kernel) {
        try {
          check(result, "cuLaunchKernel", launch_name(kernel));
        } catch (...) {
          return std::current_exception();
        }
        return std::exception_ptr();
      });
  completions_ = std::make_unique<CudaCompletions>(device, stream_, stats_.get(), *launcher_);
}

CudaQueue::~CudaQueue() {
  try {
    launcher_->drain();
    ScopedContext scope(device_.driver(), device_.context());
    device_.driver().stream_synchronize(stream_);
    completions_.reset();  // runs the callbacks still due while the stream exists
    launcher_.reset();
    device_.driver().stream_destroy(stream_);
    if (stats_) stats_->print(device_.info().name);
  } catch (...) {
    // the context could not be made current: nothing more to release
  }
}

void CudaQueue::check(CUresult result, const std::string& call, const std::string& what) const {
  if (result == CUDA_SUCCESS) return;
  const error_category category =
      result == CUDA_ERROR_INVALID_VALUE || result == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
          ? error_category::invalid_argument
          : error_category::device;
  throw error(category, "CUDA device '" + device_.info().name + "': " + what + ": " +
                            device_.driver().describe_failure(call, result));
}

void CudaQueue::copy(bool to_device, void* host, CUdeviceptr memory, const CopyLayout& layout) {
  const std::string what = std::string(to_device ? "copy_to_device" : "copy_to_host") + " of " +
                           std::to_string(layout.bytes()) + " bytes";
  const CudaDriver& driver = device_.driver();
  launcher_->drain();
  ScopedContext scope(driver, device_.context());
  validate_copy(layout, reinterpret_cast<void*>(memory), host,
                memory ? device_.bytes_after(reinterpret_cast<void*>(memory)) : 0,
                "CUDA device '" + device_.info().name + "': " + what);
  char* host_at = static_cast<char*>(host) + layout.offset;
  const CUdeviceptr device_at = memory + layout.offset;
  if (layout.rows == 1 && layout.slices == 1) {
    check(to_device ? driver.memcpy_htod_async(device_at, host_at, layout.row_bytes, stream_)
                    : driver.memcpy_dtoh_async(host_at, device_at, layout.row_bytes, stream_),
          to_device ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync", what);
    return;
  }
  const std::size_t row_pitch = layout.rows > 1 ? layout.row_pitch : layout.row_bytes;
  auto describe = [&](auto& copy, char* host_part, CUdeviceptr device_part) {
    copy.WidthInBytes = layout.row_bytes;
    copy.Height = layout.rows;
    copy.srcPitch = copy.dstPitch = row_pitch;
    copy.srcMemoryType = to_device ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    copy.dstMemoryType = to_device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    if (to_device) {
      copy.srcHost = host_part;
      copy.dstDevice = device_part;
    } else {
      copy.srcDevice = device_part;
      copy.dstHost = host_part;
    }
  };
  if (layout.slices == 1 || layout.slice_pitch % row_pitch != 0) {
    for (std::size_t s = 0; s < layout.slices; ++s) {
      CUDA_MEMCPY2D copy{};
      describe(copy, host_at + s * layout.slice_pitch, device_at + s * layout.slice_pitch);
      check(driver.memcpy_2d_async(&copy, stream_), "cuMemcpy2DAsync", what);
    }
    return;
  }
  CUDA_MEMCPY3D copy{};
  describe(copy, host_at, device_at);
  copy.Depth = layout.slices;
  copy.srcHeight = copy.dstHeight = layout.slice_pitch / row_pitch;
  check(driver.memcpy_3d_async(&copy, stream_), "cuMemcpy3DAsync", what);
}

void CudaQueue::copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) {
  CudaTiming::Scope timed(timing_.get(), stream_);  // nothing when timing is off
  copy(true, const_cast<void*>(host_base), reinterpret_cast<CUdeviceptr>(allocation), layout);
}

void CudaQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  CudaTiming::Scope timed(timing_.get(), stream_);  // nothing when timing is off
  copy(false, host_base, reinterpret_cast<CUdeviceptr>(allocation), layout);
}

void CudaQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                       std::span<const KernelArgument> arguments) {
  CudaTiming::Scope timed(timing_.get(), stream_);  // nothing when timing is off
  const auto started = stats_ ? CudaQueueStats::clock::now() : CudaQueueStats::clock::time_point{};
  LaunchPlan plan;
  plan_launch(device_, kernel, range, arguments, plan);
  // With timing on, the timing events bracket the launch here, on this thread.
  if (timing_ || !launcher_->hand_off(plan.launch, plan.parameters.params(), arguments)) {
    const CUresult result = launcher_->launch_here(plan.launch, plan.parameters.params());
    if (result != CUDA_SUCCESS) check(result, "cuLaunchKernel", launch_name(kernel));
  }
  if (stats_) {
    stats_->launches += 1;
    stats_->launch_ns += CudaQueueStats::since(started);
  }
}

std::shared_ptr<const QueueMarker> CudaQueue::mark() {
  ScopedContext scope(device_.driver(), device_.context());
  auto marker = std::make_shared<CudaMarker>(device_);
  // The event follows every launch handed off so far: recorded by the launch thread after
  // them, or here once they are issued.
  if (!launcher_->hand_off_record(*marker)) {
    launcher_->drain();
    marker->record(stream_);
  }
  return marker;
}

std::shared_ptr<const QueueMarker> CudaQueue::mark_from_any_thread() {
  // The launches this thread has seen handed off are issued first (drain() may run on any
  // thread); what the queue's thread issued itself is in the stream already. cuEventRecord
  // may run concurrently with that thread's driver calls on the stream.
  launcher_->drain();
  ScopedContext scope(device_.driver(), device_.context());
  auto marker = std::make_shared<CudaMarker>(device_);
  marker->record(stream_);
  return marker;
}

bool CudaQueue::wait_for(const QueueMarker& marker) {
  const auto* recorded = dynamic_cast<const CudaMarker*>(&marker);
  if (!recorded || &recorded->device() != &device_) return false;
  // The other queue's launch thread records it after its earlier launches: a wait for
  // the driver calls, not for the GPU. A failed record: the caller waits on the host.
  if (!recorded->wait_recorded()) return false;
  launcher_->drain();  // launches handed off before this call must not wait for the marker
  ScopedContext scope(device_.driver(), device_.context());
  check(device_.driver().stream_wait_event(stream_, recorded->event(), 0), "cuStreamWaitEvent",
        "ordering a queue behind another");
  return true;
}

std::unique_ptr<DeviceGraph> CudaQueue::record_graph(std::span<const GraphLaunch> launches) {
  const char* enabled = std::getenv("PLEXUS_CUDA_GRAPHS");
  if (!device_.driver().has_graphs() || (enabled && std::string(enabled) == "0")) return nullptr;
  ScopedContext scope(device_.driver(), device_.context());
  return std::make_unique<CudaGraph>(device_, launches);
}

void CudaQueue::launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) {
  auto* recorded = dynamic_cast<CudaGraph*>(&graph);
  if (!recorded)
    throw error(error_category::invalid_argument,
                "CUDA device '" + device_.info().name +
                    "': launch_graph was given a graph that another backend recorded");
  CudaTiming::Scope timed(timing_.get(), stream_);
  launcher_->drain();
  ScopedContext scope(device_.driver(), device_.context());
  recorded->launch(stream_, launches);
}

NativeHandles CudaQueue::native_handles() {
  return {"cuda", NativeHandle::of(device_.context()), NativeHandle::of(stream_),
          NativeHandle::of(device_.handle())};
}

void CudaQueue::enqueue_native(const std::function<void(const NativeHandles&)>& work) {
  launcher_->drain();  // the launches handed off so far go to the stream first
  CudaTiming::Scope timed(timing_.get(), stream_);  // nothing when timing is off
  ScopedContext scope(device_.driver(), device_.context());
  work(native_handles());
}

void CudaQueue::wait() {
  launcher_->drain();
  ScopedContext scope(device_.driver(), device_.context());
  const CUresult result = device_.driver().stream_synchronize(stream_);
  // Launches that failed on the launch thread after the last on_complete() (which reports
  // those before it): the first one's error.
  const auto failed = launcher_->take_failures(last_completion_launches_, launcher_->handed_off());
  if (result != CUDA_SUCCESS)
    throw error(error_category::device,
                "CUDA device '" + device_.info().name +
                    "': " + device_.driver().describe_failure("cuStreamSynchronize", result));
  if (!failed.empty()) std::rethrow_exception(failed.front().error);
}

void CudaQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  const auto started = stats_ ? CudaQueueStats::clock::now() : CudaQueueStats::clock::time_point{};
  try {
    last_completion_launches_ = launcher_->handed_off();
    completions_->add(std::move(done), last_completion_launches_);
  } catch (...) {
    done(std::current_exception());  // add() moves `done` only once it cannot fail
  }
  if (stats_) {
    stats_->completions += 1;
    stats_->on_complete_ns += CudaQueueStats::since(started);
  }
}

}  // namespace plexus::cuda
