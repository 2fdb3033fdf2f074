// HipQueue: a DeviceQueue over one HIP stream (hipStreamNonBlocking) of its device.
//
// Copies: hipMemcpyAsync for contiguous layouts, hipMemcpy2DAsync per slice for 2D/3D ones
// (hipMemcpyDefault: HIP's unified addressing tells host from device memory); from another
// HIP device hipMemcpyPeerAsync (contiguous) or hipMemcpy2DAsync after peer access was
// enabled. Host memory must stay valid until wait()/on_complete().
// Launches: plexus::validate_launch, then hipModuleLaunchKernel with a parameter array
// (allocations their device address, scalars their bytes) and the block size of the range
// (else the largest divisor of global[0] up to 256 threads). __local pointer arguments get
// consecutive 16-byte-aligned parts of the launch's dynamic LDS: the parameter holds the
// LDS address, the kernel's static LDS bytes plus the part's offset. A non-zero global
// offset is plexus::error(unsupported) (HIP launches fill the hidden offsets with 0).
// USM: hipMemcpyAsync; hipMemsetD8/16/32Async for patterns of 1, 2 or 4 bytes (others:
// false, the runtime copies a filled block).
// Completion: wait() is hipStreamSynchronize; on_complete records an event and hands it to
// the queue's completion thread (plexus::CompletionThread), which waits for it
// (hipEventSynchronize) and calls the callback: the stream never waits for the host, and
// the callback may call HIP (a stream callback may not). Failures (sticky in HIP after a
// kernel fault) surface as plexus::error(device) from both.
// Device graphs (plexus/device_graph.hpp): a HIP graph of kernel nodes (hip_graph.hpp)
// where the runtime has the graph entry points and takes module kernels in graph nodes;
// otherwise (or with PLEXUS_HIP_GRAPHS=0) none, and the launches go one by one.
// Markers: an event recorded on the stream; wait_for is hipStreamWaitEvent (markers of
// other devices: false). Timing: HipTiming events around each copy and launch.
// Native tasks: "hip": no context (HIP has none), this hipStream_t, the device ordinal.
//
// Ownership: created by HipDevice::create_queue(), must not outlive the device; the
// destructor synchronizes, serves the callbacks and destroys the stream.
// Thread-safety: one thread at a time, except mark_from_any_thread().
#pragma once

#include <hip/hip_runtime_api.h>

#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "hip_timing.hpp"
#include "plexus/completion_thread.hpp"
#include "plexus/addressed_device_queue.hpp"

namespace plexus::hip {

class HipDevice;

class HipQueue final : public AddressedDeviceQueue {
 public:
  // Throws plexus::error(device) when the stream cannot be created.
  explicit HipQueue(HipDevice& device);
  ~HipQueue() override;

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                        const CopyLayout& layout) override;
  void usm_copy(void* destination, const void* source, std::size_t bytes) override;
  bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                std::size_t bytes) override;
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  std::unique_ptr<DeviceGraph> record_graph(std::span<const GraphLaunch> launches) override;
  void launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) override;
  NativeHandles native_handles() override;
  void enqueue_native(const std::function<void(const NativeHandles&)>& work) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;
  bool orders_by_markers() const override { return true; }
  std::shared_ptr<const QueueMarker> mark() override;
  std::shared_ptr<const QueueMarker> mark_from_any_thread() override;
  bool wait_for(const QueueMarker& marker) override;
  bool enable_timing() override;
  std::shared_ptr<const OperationTiming> take_timing() override;

 private:
  // Copies the region `layout` between two bases (device or host), on the stream.
  void copy(void* destination, const void* source, const CopyLayout& layout, const char* what);
  // Throws plexus::error(device) (invalid_argument for hipErrorInvalidValue and a launch
  // beyond the device's resources) naming `what`, unless `result` is hipSuccess.
  void check(hipError_t result, const char* call, const std::string& what) const;

  HipDevice& device_;
  hipStream_t stream_ = nullptr;
  std::unique_ptr<HipTiming> timing_;  // nullptr: timing off
  std::unique_ptr<CompletionThread> completions_;
};

}  // namespace plexus::hip
