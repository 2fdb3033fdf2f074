// Helpers for scheduler tests: a component set with one scheduler, the schedulers built,
// and host tasks submitted straight to the scheduler.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plexus/component_set.hpp"
#include "plexus/scheduler.hpp"
#include "test_support.hpp"

namespace plexus::test {

inline std::unique_ptr<ComponentSet> scheduler_set(const std::string& name,
                                                   const std::string& options = "") {
  static const PluginRegistry registry({{build_plugin_dir(), "build tree"}});
  auto config = Config::from_string(
      "[scheduler]\nuse = \"" + name + "\"\n[scheduler." + name + "]\n" + options,
      "scheduler-test.toml");
  return std::make_unique<ComponentSet>(config, registry);
}

inline std::vector<std::string> scheduler_names() {
  PluginRegistry registry({{build_plugin_dir(), "build tree"}});
  return registry.names(ComponentKind::scheduler);
}

inline std::shared_ptr<TaskEvent> submit(Scheduler& scheduler, std::function<void()> work,
                                         std::vector<std::shared_ptr<TaskEvent>> dependencies = {}) {
  auto event = std::make_shared<TaskEvent>("test task");
  scheduler.submit(Task{event, std::move(dependencies), std::move(work), nullptr});
  return event;
}

}  // namespace plexus::test
