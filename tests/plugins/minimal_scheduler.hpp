// A scheduler that runs each task inline; shared by the test-only plugins.
#pragma once

#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::test {

class MinimalScheduler : public Scheduler {
 public:
  explicit MinimalScheduler(PluginContext&) {}
  void submit(Task task) override { run_task_now(task); }
  void wait_all() override {}
};

}  // namespace plexus::test
