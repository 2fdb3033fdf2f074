// CallbacksInFlight: the driver callbacks (clSetEventCallback) a queue registered that have
// not returned yet, so that the queue's destructor can wait for them. clFinish does not: a
// command's event is complete before its callbacks run (PoCL runs them afterwards on its
// own thread). A callback still running after the queue is gone would run the runtime's
// completion (start_task's: the task's body and buffers) past the runtime's end, and this
// plugin's code past dlclose (the runtime unloads its plugins when it goes).
//
// started() before registering a callback (it may run at once, on any thread); finished()
// as the callback's last action, once everything it owns is released, or when it could
// not be registered; wait_none() blocks until every started callback has finished. After
// finished() the callback touches nothing of the counter (it notifies under the lock), so
// the counter's owner may be destroyed as soon as wait_none() returns.
// Thread-safety: every member from any thread. Not copyable: callbacks hold its address.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace plexus::opencl {

class CallbacksInFlight {
 public:
  CallbacksInFlight() = default;
  CallbacksInFlight(const CallbacksInFlight&) = delete;
  CallbacksInFlight& operator=(const CallbacksInFlight&) = delete;

  void started() {
    std::lock_guard lock(mutex_);
    ++count_;
  }

  void finished() noexcept {
    std::lock_guard lock(mutex_);
    if (--count_ == 0) none_.notify_all();  // under the lock: the waiter returns after it
  }

  void wait_none() noexcept {
    std::unique_lock lock(mutex_);
    none_.wait(lock, [this] { return count_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable none_;
  std::size_t count_ = 0;  // under mutex_
};

}  // namespace plexus::opencl
