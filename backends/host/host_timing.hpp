// HostTiming: device timing for a HostQueue (DeviceQueue::enable_timing). Host operations
// run on the host, synchronously, so their times are host steady-clock times taken right
// before and after each one: no alignment error. One span (first start, last end) is open
// from the previous take() on.
//
// Thread-safety: the queue's one thread at a time; the timings take() returns are
// immutable. Ownership: owned by its queue (created when timing is turned on).
#pragma once

#include <chrono>
#include <memory>
#include <optional>

#include "plexus/device_queue.hpp"

namespace plexus::host {

class HostTiming {
 public:
  using clock = std::chrono::steady_clock;

  void started() {
    if (!span_) span_ = DeviceTimes{clock::now(), {}};
  }
  void finished() { span_->end = clock::now(); }
  // The span so far (nullptr when no operation ran since the last take()); starts a new one.
  std::shared_ptr<const OperationTiming> take();

  // Times one operation of the queue: the scope of the call that runs it. Does nothing for
  // a queue without timing (`timing` nullptr).
  class Scope {
   public:
    explicit Scope(HostTiming* timing) : timing_(timing) {
      if (timing_) [[unlikely]]
        timing_->started();
    }
    ~Scope() {
      if (timing_) [[unlikely]]
        timing_->finished();
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    HostTiming* timing_;
  };

 private:
  std::optional<DeviceTimes> span_;
};

}  // namespace plexus::host
