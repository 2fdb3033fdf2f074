// Runtime with the built-in inorder scheduler: host tasks, dependencies and failures.
#include <catch2/catch.hpp>

#include <thread>

#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "plexus/runtime.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;

namespace {
plexus::Config inorder_config() {
  return plexus::Config::from_string("[scheduler]\nuse = \"inorder\"\n", "t.toml");
}
}  // namespace

TEST_CASE("host tasks run in order through the selected scheduler") {
  plexus::Runtime runtime(inorder_config());
  CHECK(runtime.components().loaded(plexus::ComponentKind::scheduler)->name == "inorder");
  std::vector<int> order;
  auto first = runtime.host_task([&] { order.push_back(1); });
  auto second = runtime.host_task([&] { order.push_back(2); }, {first});
  runtime.wait();
  CHECK(order == std::vector<int>{1, 2});
  CHECK(second->status() == plexus::TaskStatus::complete);
  CHECK(first->finished_at() <= second->started_at());
  // inorder runs tasks on the submitting thread
  std::thread::id ran_on;
  runtime.host_task([&] { ran_on = std::this_thread::get_id(); })->wait();
  CHECK(ran_on == std::this_thread::get_id());
}

TEST_CASE("a failing task fails its event and its dependents") {
  plexus::Runtime runtime(inorder_config());
  auto failing = runtime.host_task([] { throw std::runtime_error("kernel exploded"); });
  bool dependent_ran = false;
  auto dependent = runtime.host_task([&] { dependent_ran = true; }, {failing});
  CHECK_THROWS_WITH(failing->wait(), "kernel exploded");
  CHECK_THROWS_WITH(dependent->wait(), "kernel exploded");
  CHECK_FALSE(dependent_ran);
  CHECK(dependent->status() == plexus::TaskStatus::failed);
}

TEST_CASE("without a scheduler, submitting says how to select one") {
  plexus::Runtime runtime(plexus::Config::from_string("", "empty.toml"));
  CHECK_THROWS_WITH(runtime.host_task([] {}),
                    Contains("empty.toml") && Contains("no scheduler is selected"));
  CHECK_THROWS_AS(plexus::Runtime(inorder_config()).host_task({}), plexus::error);
}

TEST_CASE("the log level comes from the config, and a bad level is refused") {
  plexus::Runtime runtime(plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[scheduler]\nuse = \"inorder\"\n", "t.toml"));
  CHECK(plexus::logger().level() == spdlog::level::warn);
  plexus::set_log_level("debug");
  CHECK(plexus::logger().level() == spdlog::level::debug);
  CHECK_THROWS_WITH(plexus::set_log_level("chatty"), Contains("unknown log level 'chatty'"));
  plexus::set_log_level("info");
}
