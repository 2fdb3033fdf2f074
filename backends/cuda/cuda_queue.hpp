// CudaQueue: a DeviceQueue over one CUDA stream (CU_STREAM_NON_BLOCKING) in the device's
// primary context.
//
// Copies: cuMemcpyHtoDAsync/DtoHAsync for contiguous layouts, cuMemcpy3DAsync for 2D/3D
// layouts (cuMemcpy2DAsync per slice when slice_pitch is not a multiple of row_pitch). Host
// memory is used as given, no staging: with pageable memory the driver stages a host-to-
// device copy before returning and finishes a device-to-host copy before returning (plain
// synchronous copies, still in stream order); with pinned (page-locked) memory they are
// asynchronous and the host memory must stay valid until wait()/on_complete().
// Launches: cuLaunchKernel, on the queue's launch thread while launches come in a chain
// (CudaLauncher; a lone launch, one with timing on or with unusual parameters, on the
// calling thread), with the block size of the range (or, without one, the largest
// divisor of global[0] up to 256 threads; other dimensions 1). Arguments, ranges and the
// kernel's limits are checked before launch() returns; a launch the driver itself refuses
// on the launch thread fails the next on_complete() (or wait()) instead. Allocations pass their
// CUdeviceptr, scalars their bytes. __local pointer arguments get consecutive 16-byte-aligned
// parts of the launch's dynamic shared memory (the parameter holds their shared-window
// address: CudaDevice::dynamic_shared_base() plus the kernel's static shared bytes). A
// non-zero global offset is plexus::error(unsupported): PTX from libclc reads no offset.
// Completion: wait() is cuStreamSynchronize; on_complete hands the callback to the queue's
// completion thread (CudaCompletions: one event recorded and synchronized per batch of
// callbacks), so the stream never waits for a host callback and the submitting thread
// makes no driver call for it. A launch builds no strings and allocates nothing (up to 16
// arguments) unless it fails. PLEXUS_BENCH_BREAKDOWN=1: stage times (CudaQueueStats).
// Markers (mark, wait_for; cuda_marker.*): an event recorded on the stream, and
// cuStreamWaitEvent on another stream of the same device (markers of other devices: false,
// the caller waits on the host). Both first wait until the launches handed to the launch
// thread are issued, so the event follows them and the wait precedes only later work.
// Timing (enable_timing): timing events around each copy and launch (CudaTiming, defined
// in cuda_timing.cpp with these members); while off, one branch per operation.
//
// Ownership: created by CudaDevice::create_queue(), must not outlive the device; the
// destructor synchronizes and destroys the stream. Thread-safety: one thread at a time.
#pragma once

#include <cuda.h>

#include <exception>
#include <functional>
#include <memory>
#include <cstdint>
#include <string>

#include "cuda_completions.hpp"
#include "cuda_launcher.hpp"
#include "cuda_queue_stats.hpp"
#include "cuda_timing.hpp"
#include "plexus/addressed_device_queue.hpp"

namespace plexus::cuda {

class CudaDevice;

class CudaQueue final : public AddressedDeviceQueue {
 public:
  // Throws plexus::error(device) when the stream cannot be created.
  explicit CudaQueue(CudaDevice& device);
  ~CudaQueue() override;

  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override;
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override;
  // From this device (cuMemcpyDtoDAsync, cuMemcpy3DAsync) or another CUDA device of this
  // driver (cuMemcpyPeerAsync, cuMemcpy3DPeerAsync, with peer access enabled where the
  // devices allow it); false for devices of other backends. In cuda_device_copies.cpp.
  bool copy_from_device(void* allocation, Device& source, const void* source_allocation,
                        const CopyLayout& layout) override;
  // USM (cuda_usm.cpp), on the stream after the launches handed to the launch thread:
  // cuMemcpyAsync (unified addressing: any USM or host address), and cuMemsetD8/16/32Async
  // for fills (a pattern of several words: one strided cuMemsetD2D*Async per word), so
  // every pattern size fills natively.
  void usm_copy(void* destination, const void* source, std::size_t bytes) override;
  bool usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                std::size_t bytes) override;
  // Buffer commands (cuda_device_copies.cpp): usm_copy (cuMemcpyAsync) and usm_fill's
  // memsets at the allocation's address (every pattern size), after the bounds checks.
  bool copy_within(void* allocation, std::size_t offset, const void* source_allocation,
                   std::size_t source_offset, std::size_t bytes) override;
  bool fill_within(void* allocation, std::size_t offset, const void* pattern,
                   std::size_t pattern_size, std::size_t bytes) override;
  void launch(const DeviceKernel& kernel, const NdRange& range,
              std::span<const KernelArgument> arguments) override;
  // Device graphs: CudaGraph (cuda_graph.hpp) when the driver has the graph entry points and
  // PLEXUS_CUDA_GRAPHS is not "0" (else nullptr: launched one by one); a replay is one
  // cuGraphLaunch on this stream, issued on the calling thread after the launches handed to
  // the launch thread, timed like a launch when timing is on.
  std::unique_ptr<DeviceGraph> record_graph(std::span<const GraphLaunch> launches) override;
  void launch_graph(DeviceGraph& graph, std::span<const GraphLaunch> launches) override;
  // Native tasks: the primary CUcontext, this queue's CUstream and the CUdevice.
  // enqueue_native() first has the launches handed to the launch thread issued, then calls
  // the work on the calling thread with the context current (timed like a launch when
  // timing is on); what it enqueues on the stream follows them.
  NativeHandles native_handles() override;
  void enqueue_native(const std::function<void(const NativeHandles&)>& work) override;
  void wait() override;
  void on_complete(std::function<void(std::exception_ptr)> done) override;
  bool orders_by_markers() const override { return true; }
  std::shared_ptr<const QueueMarker> mark() override;
  std::shared_ptr<const QueueMarker> mark_from_any_thread() override;
  bool wait_for(const QueueMarker& marker) override;
  bool enable_timing() override;  // false when the driver cannot time (no cuEventElapsedTime)
  std::shared_ptr<const OperationTiming> take_timing() override;

 private:
  void copy(bool to_device, void* host, CUdeviceptr memory, const CopyLayout& layout);
  // Throws plexus::error(device) naming `call` and `what` unless `result` is CUDA_SUCCESS.
  void check(CUresult result, const std::string& call, const std::string& what) const;

  CudaDevice& device_;
  std::unique_ptr<CudaQueueStats> stats_;  // nullptr unless PLEXUS_BENCH_BREAKDOWN=1
  CUstream stream_ = nullptr;
  std::unique_ptr<CudaLauncher> launcher_;  // before completions_, which waits on it
  std::uint64_t last_completion_launches_ = 0;  // launcher_->handed_off() at on_complete()
  std::unique_ptr<CudaCompletions> completions_;
  std::unique_ptr<CudaTiming> timing_;  // nullptr: timing off
  bool no_timing_ = false;              // enable_timing() found the driver cannot
};

}  // namespace plexus::cuda
