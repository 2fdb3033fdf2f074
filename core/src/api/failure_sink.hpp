// FailureSink: the failures of one runtime's tasks, kept so that those nobody observed (no
// wait rethrew them, from the event where they arose or from one that carries them on) are
// reported: to the runtime's asynchronous error handler, else in the log at error level (see
// runtime.hpp). Every event the API makes for a runtime (queue submissions, host tasks, host
// accesses) hands its failure here when it fails, except a failure it carries on from a
// dependency (TaskEvent::fail_with_failure_of): that one is here once, as the dependency's,
// sharing its `observed` cell. Internal to the core.
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
    // Set by a wait that rethrows the failure, from the event or any that carries it on.
    std::shared_ptr<const std::atomic<bool>> observed;
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
