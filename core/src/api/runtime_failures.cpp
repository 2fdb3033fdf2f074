// RuntimeState: failures nobody observed, and the wait for every task at shutdown (with a
// deadline when RuntimeOptions::shutdown_timeout is set).
#include <condition_variable>
#include <thread>

#include "plexus/log.hpp"
#include "runtime_state.hpp"

namespace plexus::detail {

void RuntimeState::track(const std::shared_ptr<TaskEvent>& event) {
  event->set_failure_sink(failures);
  if (options.shutdown_timeout.count() <= 0) return;
  std::lock_guard lock(tracked_mutex_);
  tracked_.add(event);
}

void RuntimeState::report_unobserved(bool log_without_handler) {
  if (!options.async_handler && !log_without_handler) return;  // kept for later
  std::vector<FailureSink::Failure> unobserved = failures->take_unobserved();
  if (unobserved.empty()) return;
  if (options.async_handler) {
    std::vector<std::exception_ptr> errors;
    for (const auto& failure : unobserved) errors.push_back(failure.error);
    options.async_handler(errors);
    return;
  }
  for (const auto& failure : unobserved) {
    std::string what = "unknown exception";
    try {
      std::rethrow_exception(failure.error);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    logger().error("runtime shutdown: task '{}' failed and nobody observed it (no wait rethrew "
                   "it, nor a dependent task's; install an async_handler, RuntimeOptions): {}",
                   failure.task, what);
  }
}

bool RuntimeState::wait_for_tasks() noexcept {
  Scheduler* scheduler = components->scheduler();
  if (!scheduler) return true;
  const auto timeout = options.shutdown_timeout;
  auto wait_all = [scheduler] {
    try {
      scheduler->wait_all();
    } catch (const std::exception& failure) {
      logger().error("runtime shutdown: waiting for tasks failed: {}", failure.what());
    }
  };
  if (timeout.count() <= 0) {
    wait_all();
    return true;
  }
  struct Waiting {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
  };
  auto waiting = std::make_shared<Waiting>();
  std::thread waiter;
  try {
    waiter = std::thread([wait_all, waiting] {
      wait_all();
      std::lock_guard lock(waiting->mutex);
      waiting->done = true;
      waiting->done_cv.notify_all();
    });
  } catch (const std::exception& refused) {
    logger().warn("runtime shutdown: no thread for the deadline ({}): waiting without one",
                  refused.what());
    wait_all();
    return true;
  }
  auto finished_within = [&](std::chrono::milliseconds limit) {
    std::unique_lock lock(waiting->mutex);
    return waiting->done_cv.wait_for(lock, limit, [&] { return waiting->done; });
  };
  PendingEvents::List running;
  if (!finished_within(timeout)) {
    {
      std::lock_guard lock(tracked_mutex_);
      tracked_.drop_done();
      running = tracked_.events();
    }
    logger().warn("runtime shutdown: {} task(s) still running after {} ms: cancelling them",
                  running.size(), timeout.count());
    for (const auto& event : running) event->cancel();
    if (!finished_within(timeout)) {
      std::string names;
      const auto now = TaskEvent::clock::now();
      for (const auto& event : running) {
        if (event->is_done()) continue;
        const bool started = event->status() == TaskStatus::running;
        const double seconds =
            std::chrono::duration<double>(now - (started ? event->started_at() : event->submitted_at()))
                .count();
        names += (names.empty() ? "" : ", ") + std::string("'") + event->label() + "' (" +
                 (started ? "running" : "waiting") + " for " + std::to_string(seconds) + " s)";
      }
      logger().error("runtime shutdown: tasks still running {} ms after they were cancelled: "
                     "{}; the runtime returns without them and leaves its components, plugins "
                     "and device memory allocated until the process exits",
                     timeout.count(), names.empty() ? std::string("(untracked)") : names);
      waiter.detach();  // it holds only `waiting` and the scheduler, which stays allocated
      return false;
    }
  }
  waiter.join();
  return true;
}

}  // namespace plexus::detail
