#include "my_scheduler.hpp"

#include "plexus/task_execution.hpp"

#include <cstddef>
#include <exception>

namespace my_scheduler {

MyScheduler::MyScheduler(plexus::PluginContext& context) {
  // Options come from the config's `[scheduler.my_scheduler]` table, e.g.
  //   [scheduler.my_scheduler]
  //   workers = 4
  // Read every option you support (unread keys are reported as probable typos).
  // const auto workers = context.options.get<std::int64_t>("workers", 1);

  // The PluginContext is valid only during this call: copy what you need.
  for (std::size_t i = 0; i < context.components.backend_count(); ++i) {
    backends_.push_back(&context.components.backend(i));
  }
  memory_ = context.components.memory();
  // TODO: start your worker threads here.
}

MyScheduler::~MyScheduler() {
  // TODO: wait for outstanding tasks, then stop and join your worker threads.
}

void MyScheduler::submit(plexus::Task task) {
  // TODO: replace this inline execution with your policy.
  run(task);
}

void MyScheduler::wait_all() {
  // TODO: block until every task submitted before this call is done. (Inline execution
  // has nothing outstanding.)
}

void MyScheduler::run(plexus::Task& task) {
  // TODO: device work: ask memory_ for the transfers the task needs, issue copies and the
  // launch through the chosen backend's device. run_task_now() covers host work: it waits
  // for dependencies, runs host_work and completes or fails the task's event.
  plexus::run_task_now(task);
}

}  // namespace my_scheduler
