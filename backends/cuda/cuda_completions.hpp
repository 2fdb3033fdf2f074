// CudaCompletions: on_complete for a CudaQueue without stalling its stream and without a
// driver call on the submitting thread. add() only queues the callback; one thread per queue,
// started on first use, takes every callback waiting, records one event on the stream (after
// the work those callbacks follow, since add() comes after it), synchronizes it, and runs the
// callbacks in add() order. Callbacks that arrive while it waits share the next event, so a
// chain of tasks costs one cuEventRecord + one cuEventSynchronize per batch, not per task;
// and, while launches stream (CudaLauncher::streaming()), it records at most one event per
// 200 us (PLEXUS_CUDA_COMPLETION_BATCH_US), so that a stream of callbacks does not make it
// contend with the launches for the driver's locks. A callback after a quiet spell is served
// at once; so is one when no work (callback, launch) came while the last batch's event was
// awaited, or none comes within the grace time (10 us, PLEXUS_CUDA_COMPLETION_GRACE_US):
// launch, wait, launch, wait pays no batching delay (before, up to the interval each time:
// 45-109 us for a 10 us launch + wait on an H200).
// The event is created with CU_EVENT_DISABLE_TIMING (and, with PLEXUS_CUDA_COMPLETION_WAIT=
// block, CU_EVENT_BLOCKING_SYNC: the thread then sleeps in the driver instead of spinning).
// (cuStreamAddCallback would block later work of the stream until its callback returned.)
//
// Launches handed to the queue's launch thread (CudaLauncher) may not be issued yet when a
// callback is added: add() takes the launcher's count of handed-off launches, and the thread
// waits until those are issued before it records the batch's event. A launch that the
// driver refused there fails the first callback added after it.
//
// Failures: a failed record or synchronize (a kernel fault is sticky in CUDA: every later
// operation of the context fails too) is given to every callback of the batch as
// plexus::error(device). A batch's event may cover work enqueued after its last callback's
// (the submitting thread runs on): a failure there is then reported to that batch as well.
//
// Thread-safety: add() from any thread; callbacks run on the completion thread, in add()
// order. Ownership: owned by the queue; the destructor (or stop()) runs every callback still
// due, then ends the thread: call it before the stream and the context go.
#pragma once

#include <cuda.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda_launcher.hpp"
#include "cuda_queue_stats.hpp"

namespace plexus::cuda {

class CudaDevice;

class CudaCompletions {
 public:
  // `stats` (may be null) receives the thread's stage times; it and `launcher` must outlive
  // this object.
  CudaCompletions(CudaDevice& device, CUstream stream, CudaQueueStats* stats,
                  CudaLauncher& launcher)
      : device_(device), stream_(stream), stats_(stats), launcher_(launcher) {}
  ~CudaCompletions() { stop(); }
  CudaCompletions(const CudaCompletions&) = delete;
  CudaCompletions& operator=(const CudaCompletions&) = delete;

  // Calls `done` once the work enqueued on the stream before this call, and the first
  // `launches` launches handed to the launcher, have finished (with the failure, or
  // nullptr). Makes no driver call. Throws only std::system_error when the thread cannot be
  // started (`done` is then left as it was, not added).
  void add(std::function<void(std::exception_ptr)>&& done, std::uint64_t launches);
  void stop();

 private:
  using Callback = std::function<void(std::exception_ptr)>;
  struct Waiting {
    Callback done;
    std::uint64_t launches;  // the launcher's handed_off() when added
  };
  void run();
  // Callbacks added plus launches handed off so far: it moves while the submitter works.
  std::uint64_t activity() const {
    return added_.load(std::memory_order_relaxed) + launcher_.handed_off();
  }
  // Runs the batch's callbacks: each gets the failure of a launch it follows (one not
  // reported to an earlier callback), else `failure`.
  void finish(std::vector<Waiting>& batch, const std::exception_ptr& failure);
  // Records the event on the stream and waits for it: nullptr, or the failure.
  std::exception_ptr finish_enqueued(CUevent event);

  CudaDevice& device_;
  CUstream stream_;
  CudaQueueStats* stats_;
  CudaLauncher& launcher_;
  std::uint64_t reported_launches_ = 0;  // the completion thread's: launches reported so far
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Waiting> waiting_;   // guarded by mutex_
  std::atomic<std::uint64_t> added_{0};  // callbacks add() took, ever
  bool stopping_ = false;          // guarded by mutex_
  std::thread thread_;             // started by add() under mutex_
};

}  // namespace plexus::cuda
