// CudaLauncher: a CudaQueue's launch thread, so that the submitting thread does not pay for
// cuLaunchKernel. On an H100 host the driver call costs about what a raw chain of tiny
// kernels costs per kernel (~3-4 us); with it on another thread, the runtime's own work for
// the next submission overlaps it (a two-stage pipeline, as a driver's own push buffer).
//
// hand_off() copies a prepared launch (function, grid, block, shared bytes, each parameter's
// bytes) into a ring slot; the thread issues slots in order with cuLaunchKernel. A thread
// that has had nothing to do for a while (PLEXUS_CUDA_LAUNCH_SPIN_US, default 100 us of
// spinning) sleeps; then hand_off() declines (returns false) and the caller launches itself,
// so a lone launch pays no wake-up: only a launch that follows another within that time
// wakes the thread (a chain is coming). PLEXUS_CUDA_LAUNCH_THREAD (read for each queue) "0" turns
// the thread off; "always" hands every launch that fits to it (tests use it).
//
// Markers (hand_off_record) go through the ring too, in order with the launches: marking a
// queue never waits for the thread. Every other operation of the stream (copies, timing
// events, synchronize) must come after the launches handed off before it: the queue calls
// drain() first (returns once they are issued: cuLaunchKernel returned), and its completion
// thread calls wait_issued(n). Sequence numbers: the n-th handed-off launch or marker
// (from 1) is number n; handed_off() is the last number.
//
// Failures: cuLaunchKernel's own failures (the function, grid or parameters refused, or the
// context's sticky error after a fault) are kept with the launch's number, as the message
// `describe(result, kernel)` gives, until take_failures() hands them to their reporter.
//
// Thread-safety: hand_off(), hand_off_record() and launch_here() from the queue's one
// submitting thread at a time; the rest from any thread (drain() on another thread waits
// for the launches it has seen handed off).
// Ownership: owned by the queue; attached to its device while it lives (CudaDevice::
// drain_launchers(), so that memory and modules are released only after the launches handed
// off before are issued); the destructor issues what is queued, then ends the thread
// (before the stream goes).
#pragma once

#include <cuda.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "cuda_queue_stats.hpp"
#include "plexus/device_module.hpp"
#include "plexus/kernel_argument.hpp"

namespace plexus::cuda {

class CudaDevice;
class CudaMarker;

class CudaLauncher {
 public:
  enum class Mode { off, chains, always };
  static constexpr std::size_t max_parameters = 16;
  static constexpr std::size_t max_parameter_bytes = 256;

  struct Launch {
    CUfunction function = nullptr;
    const DeviceKernel* kernel = nullptr;  // names the launch in a failure
    std::array<unsigned, 3> grid{1, 1, 1};
    std::array<unsigned, 3> block{1, 1, 1};
    unsigned shared_bytes = 0;
  };
  // The failure of a launch the thread issued: cuLaunchKernel's result, as an exception.
  using Describe = std::function<std::exception_ptr(CUresult, const DeviceKernel&)>;
  struct Failure {
    std::uint64_t number;
    std::exception_ptr error;
  };

  // `stats` (may be null) receives the thread's driver time; it must outlive this object.
  CudaLauncher(CudaDevice& device, CUstream stream, CudaQueueStats* stats, Describe describe);
  ~CudaLauncher();
  CudaLauncher(const CudaLauncher&) = delete;
  CudaLauncher& operator=(const CudaLauncher&) = delete;

  // Queues the launch for the thread and returns true; false when the caller should
  // launch_here() instead: the thread is off or asleep with nothing queued, or the
  // parameters do not fit a slot (more than max_parameters, or more than
  // max_parameter_bytes in all). `parameters[i]` points to the value cuLaunchKernel reads
  // for `arguments[i]` (a scalar's bytes; a CUdeviceptr or shared address, 8 bytes, for the
  // others), copied before this returns.
  bool hand_off(const Launch& launch, void* const* parameters,
                std::span<const KernelArgument> arguments);
  // Queues the recording of `marker`'s event after the launches handed off so far and
  // returns true (the thread calls marker.record_from_launcher); false when the thread is
  // off or asleep with nothing queued: the caller records it itself. `marker` must stay
  // alive until its record call was made (its destructor waits for that).
  bool hand_off_record(CudaMarker& marker);
  // cuLaunchKernel on the calling thread, after the launches handed off so far.
  CUresult launch_here(const Launch& launch, void** parameters);
  // Returns once every launch handed off so far has been issued.
  void drain();
  std::uint64_t handed_off() const { return handed_off_.load(std::memory_order_relaxed); }
  // Whether launches are streaming: the thread is awake (it stays so for the spin time
  // after its last launch); with the thread off, always (the caller cannot tell).
  bool streaming() const {
    return mode_ == Mode::off || (thread_started_.load() && !sleeping_.load());
  }
  // Returns once launches up to `number` have been issued.
  void wait_issued(std::uint64_t number) const;
  // Removes and returns the failures of launches numbered after `after` up to `upto`, in
  // order.
  std::vector<Failure> take_failures(std::uint64_t after, std::uint64_t upto);

 private:
  struct Slot {
    CudaMarker* record = nullptr;  // not null: record this marker instead of a launch
    Launch launch;
    std::size_t count = 0;
    std::array<std::uint16_t, max_parameters> offsets;  // left uninitialized: written first
    alignas(16) std::array<std::byte, max_parameter_bytes> bytes;
  };
  static constexpr std::size_t ring_size = 256;  // a power of two

  void run();
  // The ring slot for handed-off number `number`, once the thread has issued what was in it.
  Slot& free_slot(std::uint64_t number);
  // Makes slot `number` visible to the thread and wakes it when it sleeps.
  void publish(std::uint64_t number) noexcept;
  void issue(const Slot& slot, std::uint64_t number);
  // cuLaunchKernel on the queue's stream, timed into stats_ (the context must be current).
  CUresult call_driver(const Launch& launch, void** parameters);
  // Wakes the thread, starting it (and making the ring) on first use: false, with nothing
  // started, when the system refuses a thread or the ring's memory. Never throws: a refused
  // thread only means the caller launches itself.
  bool try_wake() noexcept;
  // Wakes the thread, already started (hand_off() and hand_off_record() publish a slot only
  // then). Never throws: a slot published is issued, never left behind an exception.
  void wake() noexcept;

  CudaDevice& device_;
  CUstream stream_;
  CudaQueueStats* stats_;
  Describe describe_;
  Mode mode_;
  std::unique_ptr<Slot[]> ring_;  // ring_size slots, made when the thread starts
  alignas(64) std::atomic<std::uint64_t> handed_off_{0};  // written by the submitting thread
  alignas(64) std::atomic<std::uint64_t> issued_{0};      // written by the launch thread
  alignas(64) std::atomic<bool> sleeping_{false};
  std::atomic<bool> thread_started_{false};  // thread_ may be read on its owner's side only
  std::chrono::steady_clock::time_point last_declined_{};  // the submitting thread's
  std::mutex mutex_;             // for sleeping and waking
  std::condition_variable wake_cv_;
  bool wake_requested_ = false;  // guarded by mutex_
  std::atomic<bool> stopping_{false};
  std::mutex failures_mutex_;
  std::vector<Failure> failures_;  // guarded by failures_mutex_
  std::thread thread_;             // started by the first hand_off() that wakes it
};

}  // namespace plexus::cuda
