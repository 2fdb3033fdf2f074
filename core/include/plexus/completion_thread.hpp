// CompletionThread: serves DeviceQueue::on_complete callbacks for a backend whose driver has
// no host callbacks that may call back into it (Level Zero, HIP): each callback is queued
// with a `wait` that blocks until the device work it follows is done (an event's host
// synchronization) and returns the failure to report (or nullptr); the thread runs them in
// order, one wait and then its callback at a time. The thread starts with the first add().
//
// Ownership: owned by its queue; the destructor serves every callback still queued, then
// joins the thread, so it must not run on that thread. Thread-safety: add() from any thread;
// `wait` and `done` run on the completion thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "plexus/export.hpp"

namespace plexus {

class PLEXUS_API CompletionThread {
 public:
  using Wait = std::function<std::exception_ptr()>;
  using Done = std::function<void(std::exception_ptr)>;

  CompletionThread() = default;
  ~CompletionThread();
  CompletionThread(const CompletionThread&) = delete;
  CompletionThread& operator=(const CompletionThread&) = delete;

  // Calls done(wait()) on the completion thread, after the callbacks added before. When the
  // thread cannot start, calls done at once with plexus::error(resource) saying so.
  void add(Wait wait, Done done);

 private:
  struct Entry {
    Wait wait;
    Done done;
  };
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Entry> entries_;  // guarded by mutex_
  bool stopping_ = false;      // guarded by mutex_
  std::thread thread_;
};

}  // namespace plexus
