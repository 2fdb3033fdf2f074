// ComputeGate: how many kernels may run on one device at once (scheduler/heft's
// tasks_per_device). A task takes a slot once its copies are done and gives it back when its
// kernel has finished, so the next task's copies into the device overlap with the kernel
// running there (see TimedQueue).
// Thread-safety: every member from any thread; acquire() blocks without spinning.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace plexus::heft {

class ComputeGate {
 public:
  explicit ComputeGate(std::size_t slots) : free_(slots) {}

  void acquire() {
    std::unique_lock lock(mutex_);
    available_.wait(lock, [this] { return free_ > 0; });
    --free_;
  }
  void release() {
    {
      std::lock_guard lock(mutex_);
      ++free_;
    }
    available_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable available_;
  std::size_t free_;
};

}  // namespace plexus::heft
