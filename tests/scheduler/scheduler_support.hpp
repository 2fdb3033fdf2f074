// Helpers for scheduler tests: a component set with one scheduler, the schedulers built,
// and host tasks submitted straight to the scheduler.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plexus/component_set.hpp"
#include "plexus/scheduler.hpp"
#include "plugins_under_test.hpp"
#include "test_support.hpp"

namespace plexus::test {

inline std::unique_ptr<ComponentSet> scheduler_set(const std::string& name,
                                                   const std::string& options = "") {
  auto config = Config::from_string(
      "[scheduler]\nuse = \"" + name + "\"\n[scheduler." + name + "]\n" + options,
      "scheduler-test.toml");
  return std::make_unique<ComponentSet>(
      config, *plugins_under_test(ComponentKind::scheduler).registry);
}

// The build's schedulers, or the one third-party plugin under test (plugins_under_test.hpp).
inline std::vector<std::string> scheduler_names() {
  return plugins_under_test(ComponentKind::scheduler).names;
}

inline std::shared_ptr<TaskEvent> submit(Scheduler& scheduler, std::function<void()> work,
                                         std::vector<std::shared_ptr<TaskEvent>> dependencies = {}) {
  auto event = std::make_shared<TaskEvent>("test task");
  scheduler.submit(Task{event, std::move(dependencies), std::move(work), nullptr});
  return event;
}

}  // namespace plexus::test
