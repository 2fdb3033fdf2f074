// A scheduler that runs each task inline; shared by the test-only plugins.
#pragma once

#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"

namespace plexus::test {

class MinimalScheduler : public Scheduler {
 public:
  explicit MinimalScheduler(PluginContext&) {}
  void submit(Task task) override {
    task.event->mark_running();
    if (task.host_work) task.host_work();
    task.event->mark_complete();
  }
  void wait_all() override {}
};

}  // namespace plexus::test
