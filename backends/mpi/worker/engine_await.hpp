// Waiting on the worker's engine from a queue's operation: the waiting thread drives the
// engine itself for a while (it then completes the transfer with no hand-off to the main
// thread and back), then blocks. Thread-safety: any thread that may drive the engine.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>

#include "../engine.hpp"

namespace plexus::mpi {

// How long an operation that waits for the engine (data arriving or leaving) drives it
// itself before it blocks and leaves the engine to the main thread.
inline constexpr std::chrono::microseconds await_spin{200};

// That a transfer ended, with its failure if any: set once (by the engine's completion, on
// whichever thread drives), awaited by the operation that needs it. Setting it makes no
// system call unless a thread blocks on it: std::promise's set_value always wakes through a
// futex (glibc's call_once), which cost a worker about 10 % of its time in a stream of small
// copies, where the waiter nearly always finds the signal set while it drives.
// Thread-safety: set() from one thread, the rest from any; set() at most once.
class Signal {
 public:
  void set(std::exception_ptr failure) {
    failure_ = std::move(failure);
    ready_.store(true, std::memory_order_release);
    std::lock_guard lock(mutex_);  // a waiter is either asleep now or sees ready_
    if (waiting_) cv_.notify_all();
  }
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // Blocks until set, then throws its failure.
  void get() {
    if (!ready()) {
      std::unique_lock lock(mutex_);
      waiting_ = true;
      cv_.wait(lock, [&] { return ready(); });
    }
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::atomic<bool> ready_{false};
  std::exception_ptr failure_;  // written before ready_, read after it
  std::mutex mutex_;
  std::condition_variable cv_;
  bool waiting_ = false;  // under mutex_
};

// Drives the engine until `signal` is set or await_spin passes without progress, then
// blocks; throws the transfer's failure. The operation goes on after it, then its queue's
// thread drives again: the owner is not woken for transfers still in flight.
inline void await(Engine& engine, Signal& signal) {
  engine.drive_until([&] { return signal.ready(); }, await_spin, true);
  signal.get();
}

// A transfer's Done that sets `signal` (with its failure, if any).
inline Engine::Done fulfil(const std::shared_ptr<Signal>& signal) {
  return [signal](std::exception_ptr failure) { signal->set(std::move(failure)); };
}

}  // namespace plexus::mpi
