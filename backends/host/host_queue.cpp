#include "host_queue.hpp"

#include <cstring>
#include <string>
#include <utility>

#include "caller_affinity.hpp"
#include "host_device.hpp"
#include "host_graph.hpp"
#include "host_module.hpp"
#include "kernel_launch.hpp"
#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"

namespace plexus::host {

void HostQueue::copy(void* destination, const void* source, const void* allocation,
                     const CopyLayout& layout, const char* direction) {
  validate_copy(layout, allocation, allocation == source ? destination : source,
                device_.allocation_size(allocation),
                std::string("copy ") + direction + " on '" + device_.info().name + "'");
  if (failure_) return;
  HostTiming::Scope timed(timing_.get());
  auto* to = static_cast<std::byte*>(destination) + layout.offset;
  const auto* from = static_cast<const std::byte*>(source) + layout.offset;
  if (to == from) return;  // the allocation is the host copy itself
  const bool rows_contiguous = layout.rows == 1 || layout.row_pitch == layout.row_bytes;
  if (rows_contiguous &&
      (layout.slices == 1 || layout.slice_pitch == layout.rows * layout.row_bytes)) {
    std::memmove(to, from, layout.bytes());
    return;
  }
  for (std::size_t slice = 0; slice < layout.slices; ++slice)
    for (std::size_t row = 0; row < layout.rows; ++row) {
      const std::size_t at = slice * layout.slice_pitch + row * layout.row_pitch;
      std::memmove(to + at, from + at, layout.row_bytes);
    }
}

void HostQueue::copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) {
  copy(allocation, host_base, allocation, layout, "to the device");
}

void HostQueue::copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) {
  copy(host_base, allocation, allocation, layout, "to the host");
}

void HostQueue::usm_copy(void* destination, const void* source, std::size_t bytes) {
  validate_usm_copy(destination, source, "USM copy on '" + device_.info().name + "'");
  if (bytes == 0 || failure_) return;
  HostTiming::Scope timed(timing_.get());
  std::memmove(destination, source, bytes);
}

bool HostQueue::usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                         std::size_t bytes) {
  validate_usm_fill(destination, pattern, pattern_size, bytes,
                    "USM fill on '" + device_.info().name + "'");
  if (failure_) return true;
  HostTiming::Scope timed(timing_.get());
  auto* to = static_cast<std::byte*>(destination);
  if (pattern_size == 1) {
    std::memset(to, std::to_integer<int>(*static_cast<const std::byte*>(pattern)), bytes);
    return true;
  }
  for (std::size_t at = 0; at < bytes; at += pattern_size) std::memcpy(to + at, pattern, pattern_size);
  return true;
}

template <class Work>
void HostQueue::run_guarded(Work&& work) {
  if (failure_) return;
  HostTiming::Scope timed(timing_.get());
  const CallerAffinity on_device_cores(device_.cpus());
  try {
    work();
  } catch (const error& problem) {
    if (problem.category() == error_category::invalid_argument ||
        problem.category() == error_category::unsupported)
      throw;  // found before anything ran
    failure_ = std::current_exception();
  } catch (...) {
    failure_ = std::current_exception();
  }
}

void HostQueue::launch(const DeviceKernel& kernel, const NdRange& range,
                       std::span<const KernelArgument> arguments) {
  const HostKernel& host_kernel = host_kernel_of(device_, kernel);
  run_guarded([&] { run_kernel(device_, host_kernel, range, arguments); });
}

std::unique_ptr<DeviceGraph> HostQueue::record_graph(std::span<const GraphLaunch> launches) {
  return std::make_unique<HostGraph>(device_, launches);
}

void HostQueue::launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) {
  auto* host_graph = dynamic_cast<HostGraph*>(&graph);
  if (!host_graph)
    throw error(error_category::invalid_argument,
                "launch_graph on '" + device_.info().name + "': the graph was recorded by "
                                                            "another backend's queue");
  run_guarded([&] { host_graph->run(launches); });
}

void HostQueue::enqueue_native(const std::function<void(const NativeHandles&)>& work) {
  if (failure_) return;  // a failed queue runs nothing until wait() or on_complete() reports it
  HostTiming::Scope timed(timing_.get());
  const CallerAffinity on_device_cores(device_.cpus());
  work(native_handles());
}

void HostQueue::wait() {
  if (!failure_) return;
  const std::exception_ptr failure = failure_;
  failure_ = nullptr;
  std::rethrow_exception(failure);
}

void HostQueue::on_complete(std::function<void(std::exception_ptr)> done) {
  done(std::exchange(failure_, nullptr));  // reported: later operations run again
}

bool HostQueue::enable_timing() {
  if (!timing_) timing_ = std::make_unique<HostTiming>();
  return true;
}

std::shared_ptr<const OperationTiming> HostQueue::take_timing() {
  return timing_ ? timing_->take() : nullptr;
}

}  // namespace plexus::host
