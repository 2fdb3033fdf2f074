#include "opencl_queue.hpp"

#include <array>
#include <memory>
#include <string>
#include <utility>

#include "opencl_copy_origin.hpp"
#include "opencl_device.hpp"
#include "opencl_graph.hpp"
#include "opencl_marker.hpp"
#include "opencl_module.hpp"
#include "opencl_query.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/launch_validation.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::opencl {
namespace {

// "OpenCL 3.0 PoCL ..." -> 3; 1 when the text has another shape.
int opencl_major(const std::string& version) {
  const std::string prefix = "OpenCL ";
  if (version.rfind(prefix, 0) != 0 || version.size() <= prefix.size()) return 1;
  return version[prefix.size()] - '0';
}

cl_command_queue create_queue(const OpenclDevice& device) {
  cl_int code = CL_SUCCESS;
  cl_command_queue queue = nullptr;
  if (opencl_major(device.info().version) >= 2) {
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    queue = clCreateCommandQueueWithProperties(device.context(), device.handle(), properties, &code);
  } else {
    queue = clCreateCommandQueue(device.context(), device.handle(), CL_QUEUE_PROFILING_ENABLE, &code);
  }
  if (code != CL_SUCCESS)
    throw error(error_category::device, "creating a command queue on OpenCL device '" +
                                            device.info().name + "' failed: " + error_name(code));
  return queue;
}

}  // namespace

OpenclQueue::OpenclQueue(OpenclDevice& device)
    : device_(device),
      queue_(create_queue(device)),
      completions_(std::make_unique<OpenclCompletions>(queue_.get(), device.info().name)) {}

OpenclQueue::~OpenclQueue() {
  clFinish(queue_.get());
  completions_.reset();  // the markers are complete, but their callbacks may still run
  pending_.clear();
}

void OpenclQueue::check(cl_int code, const std::string& call, const std::string& what) const {
  if (code == CL_SUCCESS) return;
  const bool bad_argument = code == CL_INVALID_WORK_GROUP_SIZE ||
                            code == CL_INVALID_WORK_ITEM_SIZE || code == CL_INVALID_GLOBAL_OFFSET ||
                            code == CL_INVALID_KERNEL_ARGS || code == CL_INVALID_ARG_SIZE ||
                            code == CL_INVALID_ARG_VALUE || code == CL_INVALID_MEM_OBJECT ||
                            code == CL_INVALID_GLOBAL_WORK_SIZE;
  throw error(bad_argument ? error_category::invalid_argument : error_category::device,
              what + ": " + call + " failed: " + error_name(code));
}

void OpenclQueue::collect_finished() {
  std::size_t finished = 0;
  for (; finished < pending_.size(); ++finished) {
    cl_int status = CL_COMPLETE;
    const cl_int code = clGetEventInfo(pending_[finished].event.get(),
                                       CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                       nullptr);
    if (code != CL_SUCCESS || status < 0) {
      if (failure_.empty()) failure_ = status_failure(pending_[finished]);
    } else if (status != CL_COMPLETE) {
      break;  // in order: later commands have not finished either
    } else if (pending_[finished].cancel && failure_.empty()) {
      failure_ = status_failure(pending_[finished]);  // a launch cancelled: groups skipped
    }
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(finished));
}

void OpenclQueue::track(cl_event event, std::shared_ptr<const std::string> what,
                        std::shared_ptr<CancelCells::Cell> cancel) {
  if (timing_) [[unlikely]]
    timing_->add(event);
  pending_.push_back({EventHandle(event), std::move(what), std::move(cancel)});
  collect_finished();
}

void OpenclQueue::track(cl_event event, const std::string& what) {
  track(event, std::make_shared<const std::string>(what));
}

void OpenclQueue::copy(bool to_device, void* host, cl_mem memory, const CopyLayout& layout) {
  const std::string what = std::string(to_device ? "copy_to_device" : "copy_to_host") +
                           " of " + std::to_string(layout.bytes()) + " bytes on OpenCL device '" +
                           device_.info().name + "'";
  validate_copy(layout, memory, host, device_.allocation_size(memory), what);
  if (!failure_.empty()) return;  // a failed queue runs nothing until wait() reports it
  cl_event event = nullptr;
  if (layout.rows == 1 && layout.slices == 1) {
    char* at = static_cast<char*>(host) + layout.offset;
    const cl_int code =
        to_device ? clEnqueueWriteBuffer(queue_.get(), memory, CL_FALSE, layout.offset,
                                         layout.row_bytes, at, 0, nullptr, &event)
                  : clEnqueueReadBuffer(queue_.get(), memory, CL_FALSE, layout.offset,
                                        layout.row_bytes, at, 0, nullptr, &event);
    check(code, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", what);
    track(event, what);
    return;
  }
  for (const RectCopy& rect : rect_copies_of(layout)) {
    const cl_int code =
        to_device ? clEnqueueWriteBufferRect(queue_.get(), memory, CL_FALSE, rect.origin.data(),
                                             rect.origin.data(), rect.region.data(), rect.row_pitch,
                                             rect.slice_pitch, rect.row_pitch, rect.slice_pitch,
                                             host, 0, nullptr, &event)
                  : clEnqueueReadBufferRect(queue_.get(), memory, CL_FALSE, rect.origin.data(),
                                            rect.origin.data(), rect.region.data(), rect.row_pitch,
                                            rect.slice_pitch, rect.row_pitch, rect.slice_pitch,
                                            host, 0, nullptr, &event);
    if (code != CL_SUCCESS) {
      check(code, to_device ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect",
            what + " (" + describe(rect) + ", buffer of " +
                std::to_string(device_.allocation_size(memory)) + " bytes)");
    }
    track(event, what);
  }
}

void OpenclQueue::copy_to_device(void* allocation, const void* host_base,
                                 const CopyLayout& layout) {
  copy(true, const_cast<void*>(host_base), static_cast<cl_mem>(allocation), layout);
}

void OpenclQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  copy(false, host_base, static_cast<cl_mem>(const_cast<void*>(allocation)), layout);
}

void OpenclQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                         std::span<const KernelArgument> arguments) {
  const OpenclKernel* loaded = &checked_kernel(kernel, range, arguments);
  const std::string& what = *loaded->launch_what();
  if (!failure_.empty()) return;
  // A cancellable task's launch: a cell of its own, set by the task's cancel (at once when
  // it was asked already: then no work-group runs).
  std::shared_ptr<CancelCells::Cell> cancel;
  if (loaded->info().cancellable) {
    if (const TaskEvent* task = current_task(); task && (cancel = device_.cancel_cells().take()))
      task->on_cancel([cell = cancel] { cell->request(); });
  }
  cl_kernel handle = loaded->handle();
  std::lock_guard lock(loaded->launch_mutex());
  set_arguments(*loaded, handle, arguments, what, cancel.get());
  cl_event event = nullptr;
  const cl_int code = clEnqueueNDRangeKernel(
      queue_.get(), handle, static_cast<cl_uint>(range.dimensions), range.offset.data(),
      range.global.data(), range.has_local_size() ? range.local.data() : nullptr, 0, nullptr,
      &event);
  check(code, "clEnqueueNDRangeKernel", what);
  track(event, loaded->launch_what(), std::move(cancel));
}

const OpenclKernel& OpenclQueue::checked_kernel(const DeviceKernel& kernel, const NdRange& range,
                                                std::span<const KernelArgument> arguments,
                                                const std::string* node) const {
  const auto* loaded = dynamic_cast<const OpenclKernel*>(&kernel);
  if (!loaded || &loaded->device() != &device_)
    throw error(error_category::invalid_argument,
                (node ? *node : "launch of '" + kernel.info().name + "' on OpenCL device '" +
                                    device_.info().name + "'") +
                    ": the kernel was loaded for another device; load its module on this one");
  const std::string& what = node ? *node : *loaded->launch_what();
  validate_launch(loaded->info(), range, arguments, what);
  if (loaded->format() == BinaryFormat::ptx && range.offset != std::array<std::size_t, 3>{0, 0, 0})
    throw error(error_category::unsupported,
                what + ": a global offset cannot be applied to a PTX module (PTX compiled with "
                       "libclc reads none); launch with offset 0 and add it in the kernel");
  return *loaded;
}

void OpenclQueue::set_arguments(const OpenclKernel& loaded, cl_kernel handle,
                                std::span<const KernelArgument> arguments, const std::string& what,
                                const CancelCells::Cell* cancel) const {
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgument& argument = arguments[i];
    const auto index = static_cast<cl_uint>(i);
    // The kernel's own handle keeps the values set last: set only what changed.
    if (handle == loaded.handle() && !loaded.argument_changed(i, argument)) continue;
    cl_int code = CL_SUCCESS;
    if (argument.kind == KernelArgumentKind::allocation && argument.usm) {
      code = clSetKernelArgSVMPointer(handle, index, argument.allocation);
    } else if (argument.kind == KernelArgumentKind::allocation) {
      cl_mem memory = static_cast<cl_mem>(argument.allocation);
      code = clSetKernelArg(handle, index, sizeof memory, &memory);
    } else if (argument.kind == KernelArgumentKind::local) {
      code = clSetKernelArg(handle, index, argument.size, nullptr);
    } else {
      code = clSetKernelArg(handle, index, argument.size, argument.value);
    }
    if (code != CL_SUCCESS && handle == loaded.handle()) loaded.forget_arguments();
    check(code, "clSetKernelArg(" + std::to_string(i) + ", '" + loaded.info().args[i].name + "')",
          what);
  }
  if (!loaded.info().cancellable) return;
  const auto index = static_cast<cl_uint>(arguments.size());
  cl_int code = CL_SUCCESS;
  if (cancel) {
    code = clSetKernelArgSVMPointer(handle, index, cancel->address());
  } else {
    cl_mem never = device_.cancel_cells().never_cancelled();
    code = clSetKernelArg(handle, index, sizeof never, &never);
  }
  check(code, "clSetKernelArg(" + std::to_string(index) + ", the cancel cell)", what);
}

std::unique_ptr<DeviceGraph> OpenclQueue::record_graph(std::span<const GraphLaunch> launches) {
  const CommandBufferApi* api = device_.command_buffers();
  if (!api) return nullptr;
  auto graph = std::make_unique<OpenclGraph>(*api, launches);
  record(*graph, launches);
  return graph;
}

void OpenclQueue::record(OpenclGraph& graph, std::span<const GraphLaunch> launches) {
  const CommandBufferApi& api = *device_.command_buffers();
  const std::string what = "recording a command buffer on OpenCL device '" +
                           device_.info().name + "'";
  cl_int code = CL_SUCCESS;
  cl_command_queue queue = queue_.get();
  const cl_command_buffer_properties_khr simultaneous[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_buffer_khr buffer =
      api.create(1, &queue, api.simultaneous_use ? simultaneous : nullptr, &code);
  check(code, "clCreateCommandBufferKHR", what);
  try {
    cl_sync_point_khr previous = 0;
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const GraphLaunch& launch = launches[i];
      const std::string node = "launch of '" + launch.kernel->info().name + "' (node " +
                               std::to_string(i + 1) + ") in a command buffer on OpenCL device '" +
                               device_.info().name + "'";
      const OpenclKernel& loaded = checked_kernel(*launch.kernel, launch.range, launch.arguments, &node);
      const NdRange& range = launch.range;
      cl_sync_point_khr point = 0;
      // A node's own kernel object: a command buffer may read the arguments when it runs
      // (PoCL does), so two nodes of one kernel must not share one.
      cl_kernel own = clCloneKernel(loaded.handle(), &code);
      check(code, "clCloneKernel", node);
      graph.keep(own);
      set_arguments(loaded, own, launch.arguments, node);
      code = api.ndrange(buffer, nullptr, nullptr, own,
                         static_cast<cl_uint>(range.dimensions), range.offset.data(),
                         range.global.data(), range.has_local_size() ? range.local.data() : nullptr,
                         i == 0 ? 0 : 1, i == 0 ? nullptr : &previous, &point, nullptr);
      check(code, "clCommandNDRangeKernelKHR", node);
      previous = point;
    }
    check(api.finalize(buffer), "clFinalizeCommandBufferKHR", what);
  } catch (...) {
    api.release(buffer);
    throw;
  }
  graph.hold(buffer, launches);
}

void OpenclQueue::launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) {
  auto* recorded = dynamic_cast<OpenclGraph*>(&graph);
  const std::string what = "replaying a command buffer on OpenCL device '" +
                           device_.info().name + "'";
  if (!recorded)
    throw error(error_category::invalid_argument,
                what + ": the graph was recorded by another backend's queue");
  if (!recorded->same_shape(launches))
    throw error(error_category::invalid_argument,
                what + ": the launches are not the recorded ones (kernels, ranges and argument "
                       "kinds must stay; record the graph again)");
  if (!failure_.empty()) return;
  // No mutable dispatch: new scalars or allocations are a new recording.
  if (!recorded->same_values(launches)) {
    record(*recorded, launches);
  } else if (!device_.command_buffers()->simultaneous_use) {
    check(clFinish(queue_.get()), "clFinish", what);  // its last replay may still be pending
  }
  cl_event event = nullptr;
  check(device_.command_buffers()->enqueue(0, nullptr, recorded->buffer(), 0, nullptr, &event),
        "clEnqueueCommandBufferKHR", what);
  track(event, what);
}

std::shared_ptr<const QueueMarker> OpenclQueue::mark() {
  const std::string what = "a marker on OpenCL device '" + device_.info().name + "'";
  cl_event event = nullptr;
  check(clEnqueueMarkerWithWaitList(queue_.get(), 0, nullptr, &event),
        "clEnqueueMarkerWithWaitList", what);
  auto marker = std::make_shared<OpenclMarker>(device_, event);
  // Another queue waits for it: it must reach the device without a wait on this queue.
  check(clFlush(queue_.get()), "clFlush", what);
  return marker;
}

bool OpenclQueue::wait_for(const QueueMarker& marker) {
  const auto* recorded = dynamic_cast<const OpenclMarker*>(&marker);
  if (!recorded || &recorded->device() != &device_) return false;
  const std::string what = "ordering a queue of OpenCL device '" + device_.info().name +
                           "' behind another";
  cl_event waited = recorded->event();
  cl_event event = nullptr;
  check(clEnqueueBarrierWithWaitList(queue_.get(), 1, &waited, &event),
        "clEnqueueBarrierWithWaitList", what);
  track(event, what);
  return true;
}

NativeHandles OpenclQueue::native_handles() {
  return {"opencl", NativeHandle::of(device_.context()), NativeHandle::of(queue_.get()),
          NativeHandle::of(device_.handle())};
}

void OpenclQueue::enqueue_native(const std::function<void(const NativeHandles&)>& work) {
  if (!failure_.empty()) return;  // a failed queue runs nothing until wait() reports it
  const auto marker = [&](const char* what) {
    cl_event event = nullptr;
    check(clEnqueueMarkerWithWaitList(queue_.get(), 0, nullptr, &event),
          "clEnqueueMarkerWithWaitList", what);
    track(event, what);
  };
  if (timing_) [[unlikely]]
    marker("the marker before a native task");  // the work's device start
  work(native_handles());
  if (timing_) [[unlikely]]
    marker("the marker after a native task");  // its device end
}

void OpenclQueue::wait() {
  const cl_int code = clFinish(queue_.get());
  collect_finished();
  if (code != CL_SUCCESS && failure_.empty()) failure_ = {"clFinish failed: " + error_name(code)};
  completions_->finish_waiting();  // any the driver's thread could not mark (done now)
  if (failure_.empty()) return;
  const CommandFailure failure = std::exchange(failure_, {});
  pending_.clear();
  throw error(failure.category, "OpenCL device '" + device_.info().name + "': " + failure.text);
}

void OpenclQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  collect_finished();
  // The completion takes over reporting what is enqueued so far: the queue runs on.
  completions_->add({std::move(done), std::exchange(pending_, {}), std::exchange(failure_, {})});
}

bool OpenclQueue::enable_timing() {
  if (timing_ || no_timing_) return !no_timing_;
  try {
    timing_ = std::make_unique<OpenclTiming>(device_);
  } catch (const error&) {
    no_timing_ = true;  // no device time to align with: the caller keeps its host times
  }
  return !no_timing_;
}

std::shared_ptr<const OperationTiming> OpenclQueue::take_timing() {
  return timing_ ? timing_->take() : nullptr;
}

}  // namespace plexus::opencl
