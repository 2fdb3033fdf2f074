// Conformance suite for schedulers: every scheduler plugin of this build must pass it, and
// a third-party one through the installed suite (`plexus conformance scheduler --plugin`;
// the tag [conformance] selects what runs there).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <vector>
#include <mutex>
#include <thread>

#include "scheduler_support.hpp"

using plexus::test::submit;

TEST_CASE("every scheduler honours dependencies, failures and wait_all", "[conformance]") {
  auto names = plexus::test::scheduler_names();
  // inorder and dag at least; a third-party plugin alone
  REQUIRE(names.size() >= (plexus::test::plugins_under_test(plexus::ComponentKind::scheduler).third_party ? 1u : 2u));
  for (const auto& name : names) {
    DYNAMIC_SECTION("scheduler/" << name) {
      auto set = plexus::test::scheduler_set(name);
      plexus::Scheduler& scheduler = *set->scheduler();
      std::mutex mutex;
      std::vector<std::string> order;
      auto record = [&](std::string what) {
        return [&, what] {
          std::lock_guard lock(mutex);
          order.push_back(what);
        };
      };

      // A diamond: a -> (b, c) -> d.
      auto a = submit(scheduler, record("a"));
      auto b = submit(scheduler, record("b"), {a});
      auto c = submit(scheduler, record("c"), {a});
      auto d = submit(scheduler, record("d"), {b, c});
      d->wait();
      REQUIRE(order.size() == 4);
      CHECK(order.front() == "a");
      CHECK(order.back() == "d");
      CHECK(a->finished_at() <= b->started_at());
      CHECK(c->finished_at() <= d->started_at());

      // A failure fails its dependents without running them.
      bool dependent_ran = false;
      auto failing = submit(scheduler, [] { throw std::runtime_error("task exploded"); });
      auto dependent = submit(scheduler, [&] { dependent_ran = true; }, {failing});
      CHECK_THROWS_WITH(dependent->wait(), "task exploded");
      CHECK(dependent->status() == plexus::TaskStatus::failed);
      CHECK_FALSE(dependent_ran);

      // Many tasks from several threads; wait_all returns when all are done.
      std::atomic<int> done{0};
      std::vector<std::thread> submitters;
      for (int t = 0; t < 4; ++t) {
        submitters.emplace_back([&] {
          std::shared_ptr<plexus::TaskEvent> previous;
          for (int i = 0; i < 50; ++i) {
            std::vector<std::shared_ptr<plexus::TaskEvent>> deps;
            if (previous) deps.push_back(previous);
            previous = submit(scheduler, [&] { ++done; }, deps);
          }
        });
      }
      for (auto& submitter : submitters) submitter.join();
      scheduler.wait_all();
      CHECK(done == 200);
    }
  }
}

TEST_CASE("dag and heft complete a join where its last dependency completes, never on a worker",
          "[scheduler][dag][heft]") {
  // A join (plexus/task.hpp: no work) given to a worker costs a wake-up to do nothing;
  // automatic replay ends the kernels of every wait with one (issue 21 item 11).
  for (const std::string name : {"dag", "heft"}) {
    DYNAMIC_SECTION("scheduler/" << name) {
      auto set = plexus::test::scheduler_set(name, "workers = 2\n");
      plexus::Scheduler& scheduler = *set->scheduler();
      const auto join = [&](std::vector<std::shared_ptr<plexus::TaskEvent>> after) {
        auto event = std::make_shared<plexus::TaskEvent>("join");
        scheduler.submit(plexus::Task{event, std::move(after), {}, nullptr});
        return event;
      };
      auto a = submit(scheduler, [] {});
      a->wait();
      CHECK(join({a})->status() == plexus::TaskStatus::complete);  // before submit returned
      CHECK(join({})->status() == plexus::TaskStatus::complete);
      // A dependency still running: the join completes on the thread that completes it.
      std::promise<void> release;
      std::shared_future<void> released = release.get_future().share();
      std::promise<std::thread::id> ran, joined;
      auto b = submit(scheduler, [&] {
        ran.set_value(std::this_thread::get_id());
        released.wait();
      });
      auto pending = join({b});
      pending->on_done([&] { joined.set_value(std::this_thread::get_id()); });
      CHECK_FALSE(pending->is_done());
      release.set_value();
      const std::thread::id worker = ran.get_future().get();
      CHECK(joined.get_future().get() == worker);
      CHECK(worker != std::this_thread::get_id());
      scheduler.wait_all();
      CHECK(pending->status() == plexus::TaskStatus::complete);
    }
  }
}

TEST_CASE("every scheduler completes a join after its dependencies, failing with their failure",
          "[conformance]") {
  // A join (plexus/task.hpp): neither host work nor a body; the core ends commands with them.
  for (const auto& name : plexus::test::scheduler_names()) {
    DYNAMIC_SECTION("scheduler/" << name) {
      auto set = plexus::test::scheduler_set(name);
      plexus::Scheduler& scheduler = *set->scheduler();
      const auto join = [&](std::vector<std::shared_ptr<plexus::TaskEvent>> after) {
        auto event = std::make_shared<plexus::TaskEvent>("join");
        scheduler.submit(plexus::Task{event, std::move(after), {}, nullptr});
        return event;
      };
      std::atomic<bool> ran{false};
      auto slow = submit(scheduler, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        ran = true;
      });
      auto after_slow = join({slow});
      after_slow->wait();
      CHECK(ran);
      CHECK(slow->finished_at() <= after_slow->finished_at());
      CHECK(join({})->wait_for(std::chrono::seconds(10)));

      auto failing = submit(scheduler, [] { throw std::runtime_error("dependency exploded"); });
      auto after_failure = join({slow, failing});
      CHECK_THROWS_WITH(after_failure->wait(), "dependency exploded");
      CHECK(after_failure->status() == plexus::TaskStatus::failed);

      // wait_all waits for a join as for any task.
      auto slow_again = submit(scheduler, [] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      });
      auto last = join({slow_again});
      scheduler.wait_all();
      CHECK(last->status() == plexus::TaskStatus::complete);
    }
  }
}
