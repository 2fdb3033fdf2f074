// HostQueue: the DeviceQueue of a host device. Operations run synchronously on the
// enqueueing thread (copies as memcpy of the CopyLayout's rows; launches on the device's
// thread pool with this thread taking part), so each has finished when its call returns.
//
// Errors: bad arguments throw plexus::error(invalid_argument) at once; a failure while an
// operation runs is kept: later operations are skipped until wait() or on_complete()
// reports it (and clears it). on_complete() calls back at once, on the calling thread.
// Native tasks: no native queue, context or device objects; enqueue_native() runs the work on
// the calling thread (timed like a launch), skipped while a failure is kept. Several queues
// of one device run native work at once (one per scheduler thread).
// Timing (enable_timing): host times around each operation that runs (HostTiming).
// Thread-safety: one thread at a time per queue (DeviceQueue's contract).
// Ownership: must not outlive its device.
#pragma once

#include <exception>
#include <memory>

#include "host_timing.hpp"
#include "plexus/addressed_device_queue.hpp"

namespace plexus::host {

class HostDevice;

class HostQueue final : public AddressedDeviceQueue {
 public:
  explicit HostQueue(HostDevice& device) : device_(device) {}

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  // USM: memmove and a pattern loop, on the calling thread like the copies.
  void usm_copy(void* destination, const void* source, std::size_t bytes) override;
  bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                std::size_t bytes) override;
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  // Device graphs: HostGraph (host_graph.hpp), replayed on the calling thread like launch().
  std::unique_ptr<DeviceGraph> record_graph(std::span<const GraphLaunch> launches) override;
  void launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) override;
  NativeHandles native_handles() override { return {"host", {}, {}, {}}; }
  void enqueue_native(const std::function<void(const NativeHandles&)>& work) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;
  bool enable_timing() override;
  std::shared_ptr<const OperationTiming> take_timing() override;

 private:
  // Runs `work` unless a failure is kept; keeps a failure while running (errors found
  // before anything ran, invalid_argument and unsupported, propagate).
  template <class Work>
  void run_guarded(Work&& work);
  void copy(void* destination, const void* source, const void* allocation, const CopyLayout& layout,
            const char* direction);

  HostDevice& device_;
  std::exception_ptr failure_;
  std::unique_ptr<HostTiming> timing_;  // nullptr: timing off
};

}  // namespace plexus::host
