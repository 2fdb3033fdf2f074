#include "fifo_scheduler.hpp"

#include "plexus/task_execution.hpp"

#include <exception>
#include <string>
#include <utility>

#include "plexus/component_lookup.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"

namespace fifo_example {

namespace {

std::size_t read_queue_limit(const plexus::ComponentOptions& options) {
  const std::int64_t limit = options.get<std::int64_t>("queue_limit", 0);
  if (limit < 0) {
    throw plexus::error(plexus::error_category::config,
                        "[" + options.table_path() + "] queue_limit = " + std::to_string(limit) +
                            ": expected an integer >= 0 (0 means unbounded)");
  }
  return static_cast<std::size_t>(limit);
}

}  // namespace

void FifoScheduler::check_options(const plexus::ComponentOptions& options) {
  read_queue_limit(options);
}

FifoScheduler::FifoScheduler(plexus::PluginContext& context)
    : queue_limit_(read_queue_limit(context.options)), worker_([this] { worker_loop(); }) {
  const auto devices = plexus::available_devices(context.components);
  if (!devices.empty()) first_device_ = devices.front();
  plexus::logger().debug("fifo scheduler: one worker thread, queue_limit={}", queue_limit_);
}

FifoScheduler::~FifoScheduler() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  space_cv_.notify_all();
  worker_.join();  // the worker drains the queue before it returns
}

void FifoScheduler::submit(plexus::Task task) {
  if (!task.event) {
    throw plexus::error(plexus::error_category::invalid_argument,
                        "fifo scheduler: submit() got a task without an event");
  }
  const bool on_worker = std::this_thread::get_id() == worker_.get_id();
  {
    std::unique_lock lock(mutex_);
    // A task submitting from the worker must not wait for the worker to make room.
    if (queue_limit_ > 0 && !on_worker) {
      space_cv_.wait(lock, [&] { return queue_.size() < queue_limit_ || stopping_; });
    }
    if (stopping_) {
      throw plexus::error(plexus::error_category::internal,
                          "fifo scheduler: submit() during destruction");
    }
    // Placing in submission order (under the lock) records the task's buffer accesses in
    // the memory model and adds the earlier tasks they conflict with to its dependencies.
    plexus::Device* placement =
        task.body ? plexus::default_placement(*task.body, first_device_) : nullptr;
    try {
      plexus::place_task(task, placement);
    } catch (...) {
      task.event->mark_failed(std::current_exception());
      return;
    }
    queue_.push_back({std::move(task), placement});
    ++submitted_;
  }
  work_cv_.notify_one();
}

void FifoScheduler::wait_all() {
  if (std::this_thread::get_id() == worker_.get_id()) {
    throw plexus::error(plexus::error_category::invalid_argument,
                        "fifo scheduler: wait_all() called from inside a task would wait "
                        "for itself; wait on specific events instead");
  }
  std::unique_lock lock(mutex_);
  // Tasks finish in submission order, so "the first `target` tasks are done" is exactly
  // "finished_ >= target".
  const std::uint64_t target = submitted_;
  done_cv_.wait(lock, [&] { return finished_ >= target; });
}

void FifoScheduler::worker_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_cv_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;  // stopping_ and drained
    Queued queued = std::move(queue_.front());
    queue_.pop_front();
    space_cv_.notify_all();

    lock.unlock();
    execute(queued);
    queued = {};  // release the work's captures before waiters see it finished
    lock.lock();

    ++finished_;
    done_cv_.notify_all();
  }
}

void FifoScheduler::execute(Queued& queued) {
  // Dependencies were submitted earlier (here or elsewhere); waiting on them blocks only
  // this worker, which is what strict FIFO order means. A failed dependency fails the task.
  plexus::run_task_now(queued.task, queues_.for_device(queued.placement));
}

}  // namespace fifo_example
