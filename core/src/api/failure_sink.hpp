// FailureSink: the failures of one runtime's tasks, kept so that those nobody observed (no
// wait rethrew them, no dependent task took them over) are reported: to the runtime's
// asynchronous error handler, else in the log at error level (see runtime.hpp). Every event
// the API makes for a runtime (queue submissions, host tasks, host accesses) hands its
// failure here when it fails. Internal to the core.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace plexus::detail {

class FailureSink {
 public:
  struct Failure {
    std::string task;  // the event's label, e.g. "kernel saxpy"
    std::exception_ptr error;
    std::shared_ptr<const std::atomic<bool>> observed;  // set by the event's waits
  };

  void add(Failure failure);
  // The failures not observed so far, each handed out once.
  std::vector<Failure> take_unobserved();

 private:
  std::mutex mutex_;
  std::vector<Failure> failures_;  // under mutex_
  std::size_t prune_at_ = 64;      // drop the observed ones when the list reaches this
};

}  // namespace plexus::detail
