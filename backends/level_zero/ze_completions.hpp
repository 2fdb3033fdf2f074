// ZeCompletions: the thread that serves a ZeQueue's on_complete() callbacks. Level Zero has
// no host callbacks, so each callback is queued with the event of the operation it follows
// (the queue's last one when on_complete() was called); the thread waits for each event in
// turn (zeEventHostSynchronize), tells the queue which operations are done (`settle`: their
// events go back to the pool, a failure is kept) and calls the callback with the failure the
// queue hands over (`take_failure`). The thread starts with the first callback.
//
// Ownership: owned by its queue; the destructor serves every callback still queued, then
// joins the thread, so it must not run on that thread. Thread-safety: add() from the queue's
// thread; settle and take_failure are called on the completion thread.
#pragma once

#include <level_zero/ze_api.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "ze_events.hpp"
#include "ze_loader.hpp"

namespace plexus::level_zero {

class ZeCompletions {
 public:
  using Settle = std::function<void(std::uint64_t sequence, ze_result_t result)>;
  using TakeFailure = std::function<std::exception_ptr()>;

  ZeCompletions(const ZeLoader& loader, Settle settle, TakeFailure take_failure);
  ~ZeCompletions();
  ZeCompletions(const ZeCompletions&) = delete;
  ZeCompletions& operator=(const ZeCompletions&) = delete;

  // Calls `done` once `event` (the operation numbered `sequence`) has signalled.
  void add(std::shared_ptr<ZeEvent> event, std::uint64_t sequence,
           std::function<void(std::exception_ptr)> done);

 private:
  struct Entry {
    std::shared_ptr<ZeEvent> event;
    std::uint64_t sequence = 0;
    std::function<void(std::exception_ptr)> done;
  };
  void run();

  const ZeLoader& loader_;
  Settle settle_;
  TakeFailure take_failure_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Entry> entries_;  // guarded by mutex_
  bool stopping_ = false;      // guarded by mutex_
  std::thread thread_;
};

}  // namespace plexus::level_zero
