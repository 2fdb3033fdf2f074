#include "dag_scheduler.hpp"

#include "plexus/component_lookup.hpp"
#include "plexus/error.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::dag {

namespace {
thread_local const DagScheduler* running_on = nullptr;  // the scheduler whose worker this is
}  // namespace

struct DagScheduler::Node {
  Task task;
  Device* placement = nullptr;  // nullptr: the host
};

DagScheduler::DagScheduler(PluginContext& context) {
  const auto devices = available_devices(context.components);
  if (!devices.empty()) first_device_ = devices.front();
  std::int64_t count = context.options.get_non_negative(
      "workers", static_cast<std::int64_t>(std::thread::hardware_concurrency()));
  if (count == 0) count = 1;
  workers_.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) workers_.emplace_back([this] { work(); });
}

DagScheduler::~DagScheduler() {
  {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [this] { return outstanding_ == 0; });
    stopping_ = true;
  }
  ready_cv_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void DagScheduler::submit(Task task) {
  if (!task.event) {
    throw error(error_category::invalid_argument, "dag scheduler: a task without an event");
  }
  auto node = std::make_shared<Node>();
  node->task = std::move(task);
  if (node->task.body) {
    node->placement = default_placement(*node->task.body, first_device_);
    try {
      place_task(node->task, node->placement);
    } catch (...) {
      node->task.event->mark_failed(std::current_exception());
      return;
    }
  }
  {
    std::lock_guard lock(mutex_);
    ++outstanding_;
  }
  when_done(node->task.dependencies, [this, node] { make_ready(node); });
}

void DagScheduler::make_ready(std::shared_ptr<Node> node) {
  {
    std::lock_guard lock(mutex_);
    ready_.push_back(std::move(node));
  }
  ready_cv_.notify_one();
}

void DagScheduler::wait_all() {
  if (running_on == this) {
    throw error(error_category::invalid_argument,
                "dag scheduler: wait_all() from inside a task would wait for that task; wait "
                "on the events you need instead");
  }
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [this] { return outstanding_ == 0; });
}

void DagScheduler::work() {
  running_on = this;
  DeviceQueues queues;  // this worker's own queue on each device it runs tasks on
  for (;;) {
    std::shared_ptr<Node> node;
    {
      std::unique_lock lock(mutex_);
      ready_cv_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
      if (ready_.empty()) return;  // stopping, nothing left
      node = std::move(ready_.front());
      ready_.pop_front();
    }
    // Dependencies are done: this only propagates a failed one, then runs the work.
    run_task_now(node->task, queues.for_device(node->placement));
    node.reset();  // release the work's captures before waiters see it finished
    bool idle = false;
    {
      std::lock_guard lock(mutex_);
      idle = --outstanding_ == 0;
    }
    if (idle) idle_cv_.notify_all();
  }
}

}  // namespace plexus::dag
