// CudaCompletions: on_complete for a CudaQueue without stalling its stream. Each add()
// records a reusable event (CU_EVENT_DISABLE_TIMING) on the stream; one thread per queue,
// started on first use, synchronizes the events in the order they were added and runs
// their callbacks (cuStreamAddCallback would block later work of the stream until its
// callback returned). The callback gets the event's error as plexus::error(device).
//
// Thread-safety: add() from the queue's one thread at a time; callbacks run on the
// completion thread, in add() order. Ownership: owned by the queue; the destructor (or
// stop()) runs every callback still due, then ends the thread: call it before the stream
// and the context go.
#pragma once

#include <cuda.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace plexus::cuda {

class CudaDevice;

class CudaCompletions {
 public:
  explicit CudaCompletions(CudaDevice& device) : device_(device) {}
  ~CudaCompletions() { stop(); }
  CudaCompletions(const CudaCompletions&) = delete;
  CudaCompletions& operator=(const CudaCompletions&) = delete;

  // Calls `done` once the work enqueued on `stream` so far has finished. Throws
  // plexus::error(device) when the event cannot be created or recorded (nothing is added).
  void add(CUstream stream, std::function<void(std::exception_ptr)> done);
  void stop();

 private:
  struct Pending {
    CUevent event;
    std::function<void(std::exception_ptr)> done;
  };
  void run();
  CUevent take_event();  // a recycled event, else a new one; the context must be current

  CudaDevice& device_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Pending> pending_;  // guarded by mutex_
  std::vector<CUevent> free_;    // finished events to record again; guarded by mutex_
  bool stopping_ = false;        // guarded by mutex_
  std::thread thread_;
};

}  // namespace plexus::cuda
