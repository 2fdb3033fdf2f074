// scheduler/dag specifics: independent tasks run at the same time, the worker count, and
// misuse refused.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

#include "plexus/error.hpp"
#include "scheduler_support.hpp"

using plexus::test::submit;
using Catch::Matchers::Contains;

namespace {
// Work that returns true only if `count` tasks are inside it at the same time (gives up
// after a minute, so a serial scheduler fails the test instead of hanging it; no timing:
// the other task arrives within microseconds, or, on a loaded machine, seconds).
struct Rendezvous {
  std::atomic<int> arrived{0};
  bool meet(int count) {
    ++arrived;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (arrived.load() < count) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }
};
}  // namespace

TEST_CASE("dag: independent tasks run concurrently") {
  auto set = plexus::test::scheduler_set("dag", "workers = 2\n");
  Rendezvous rendezvous;
  std::atomic<int> met{0};
  auto a = submit(*set->scheduler(), [&] { met += rendezvous.meet(2); });
  auto b = submit(*set->scheduler(), [&] { met += rendezvous.meet(2); });
  set->scheduler()->wait_all();
  CHECK(met == 2);
}

TEST_CASE("dag: with one worker, tasks run one at a time") {
  auto set = plexus::test::scheduler_set("dag", "workers = 1\n");
  std::atomic<int> inside{0}, most{0};
  for (int i = 0; i < 20; ++i) {
    submit(*set->scheduler(), [&] {
      const int now = ++inside;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      --inside;
    });
  }
  set->scheduler()->wait_all();
  CHECK(most == 1);
}

TEST_CASE("dag: a task waits for a dependency from outside the scheduler") {
  auto set = plexus::test::scheduler_set("dag", "workers = 2\n");
  auto external = std::make_shared<plexus::TaskEvent>("external");
  bool ran = false;
  auto task = submit(*set->scheduler(), [&] { ran = true; }, {external});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(task->is_done());
  external->mark_complete();
  task->wait();
  CHECK(ran);
}

TEST_CASE("dag: wait_all inside a task and a negative worker count are refused") {
  auto set = plexus::test::scheduler_set("dag", "workers = 2\n");
  plexus::Scheduler& scheduler = *set->scheduler();
  auto inside = submit(scheduler, [&] { scheduler.wait_all(); });
  CHECK_THROWS_WITH(inside->wait(), Contains("from inside a task"));
  CHECK_THROWS_WITH(plexus::test::scheduler_set("dag", "workers = -2\n"),
                    Contains("scheduler.dag.workers") && Contains("-2"));
}
