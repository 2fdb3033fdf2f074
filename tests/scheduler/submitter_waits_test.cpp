// Task::submitter_waits (plexus/task.hpp): a host task whose submitting thread waits for it at
// once (a host access) runs on that thread inside submit() under inorder, dag and heft when
// its dependencies are done (else as any host task), instead of on a worker (a wake-up of
// the worker, then one of the submitter). Host tasks without the flag still go to the
// workers; failures go to the event as before, and wait_all() from inside such a task is
// refused as from a worker.
#include <catch2/catch.hpp>

#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "plexus/error.hpp"
#include "scheduler_support.hpp"

namespace {

std::shared_ptr<plexus::TaskEvent> submit_waited(
    plexus::Scheduler& scheduler, std::function<void()> work,
    std::vector<std::shared_ptr<plexus::TaskEvent>> dependencies = {}) {
  auto event = std::make_shared<plexus::TaskEvent>("waited task");
  plexus::Task task{event, std::move(dependencies), std::move(work), nullptr};
  task.submitter_waits = true;
  scheduler.submit(std::move(task));
  return event;
}

}  // namespace

TEST_CASE("a host task its submitter waits for runs on the submitting thread, failures as before",
          "[scheduler][dag][heft]") {
  for (const std::string name : {"inorder", "dag", "heft"}) {
    DYNAMIC_SECTION("scheduler/" << name) {
      auto set = plexus::test::scheduler_set(name, name == "inorder" ? "" : "workers = 2\n");
      plexus::Scheduler& scheduler = *set->scheduler();
      const std::thread::id here = std::this_thread::get_id();

      // Ready at submit: run inside submit(), done when it returns.
      std::thread::id ran;
      auto ready = submit_waited(scheduler, [&] { ran = std::this_thread::get_id(); });
      CHECK(ready->status() == plexus::TaskStatus::complete);
      CHECK(ran == here);

      if (name != "inorder") {
        // Without the flag a host task still goes to a worker.
        std::promise<std::thread::id> plain;
        plexus::test::submit(scheduler, [&] { plain.set_value(std::this_thread::get_id()); });
        CHECK(plain.get_future().get() != here);

        // A dependency still running on a worker: it goes to a worker as any host task
        // once the dependency is done (submit() returns at once).
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        // (Released only after the submission: released before, the dependency could be
        // done at submission, and the task rightly run here; TSan's slower run did that.)
        auto running = plexus::test::submit(scheduler, [released] { released.wait(); });
        std::thread::id after = {};
        auto waited =
            submit_waited(scheduler, [&] { after = std::this_thread::get_id(); }, {running});
        CHECK_FALSE(waited->is_done());  // submit() returned without running it
        release.set_value();
        waited->wait_done();
        CHECK(waited->status() == plexus::TaskStatus::complete);
        CHECK(after != here);
      }

      // Its own failure goes to its event: submit() does not throw it.
      auto failing = submit_waited(scheduler, [] { throw std::runtime_error("host work failed"); });
      REQUIRE(failing->is_done());
      CHECK_THROWS_WITH(failing->wait(), "host work failed");
      // A failed dependency fails it with that failure, without running it.
      bool behind_ran = false;
      auto broken = plexus::test::submit(scheduler, [] { throw std::runtime_error("first"); });
      broken->wait_done();  // done at submission: run (refused) on this thread
      auto behind = submit_waited(scheduler, [&] { behind_ran = true; }, {broken});
      REQUIRE(behind->is_done());
      CHECK_THROWS_WITH(behind->wait(), "first");
      CHECK_FALSE(behind_ran);
      if (name != "inorder") {
        // wait_all() from inside it would wait for itself: refused, as on a worker.
        auto waits_all = submit_waited(scheduler, [&] { scheduler.wait_all(); });
        REQUIRE(waits_all->is_done());
        CHECK_THROWS_WITH(waits_all->wait(), Catch::Contains("wait_all() from inside a task"));
      }
      scheduler.wait_all();
    }
  }
}
