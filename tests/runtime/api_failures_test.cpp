// Failures that must not vanish and waits that must end, under every scheduler:
// - a failed writer nobody waited on fails the host access (and the tasks) reading its data;
// - failures nobody observed reach the async handler (RuntimeOptions), else the log;
// - a thread that holds a host view and waits for work that needs that view gets an error
//   (inorder, dag, heft), never a hang;
// - wait_for(timeout) on events and queues; cooperative cancel of host-backend kernels;
// - a runtime whose tasks never end returns from its destructor after its deadline.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime_test_support.hpp"

using namespace std::chrono_literals;
using plexus::error_category;
using plexus::test::make_runtime;
using plexus::test::require_error;

namespace {

const char* const schedulers[] = {"inorder", "dag", "heft"};

std::unique_ptr<plexus::Runtime> runtime_with(const std::string& scheduler,
                                              plexus::RuntimeOptions options = {}) {
  return std::make_unique<plexus::Runtime>(
      plexus::test::runtime_config({scheduler, "paged"}, "\"host\""), std::move(options));
}

// Fails a write to `data` in a host task of `q` whose event nobody waits for.
void failing_writer(plexus::Queue& q, plexus::Buffer<int>& data) {
  q.submit([&](plexus::Handler& h) {
    auto out = data.access(h, plexus::write);
    h.host_task([=] {
      out[0] = 99;
      throw plexus::error(error_category::device, "the writer broke");
    });
  });
}

}  // namespace

TEST_CASE("a failed writer nobody waited on fails the host access and the readers of its data") {
  for (const char* scheduler : schedulers) {
    for (const bool through_middle : {false, true}) {
      DYNAMIC_SECTION("scheduler/" << scheduler << (through_middle ? "/through a writer" : "")) {
        auto rt = runtime_with(scheduler);
        plexus::Queue q = rt->queue();
        std::vector<int> initial(8, 1);
        plexus::Buffer<int> data(initial.data(), initial.size());
        failing_writer(q, data);
        // Readers on another queue (no in-order link to the writer).
        plexus::Queue other = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
        if (through_middle) {
          // A writer that never runs (its dependency failed) writes nothing: the data it
          // would have replaced is what the failed writer left, so readers after it fail too.
          auto middle = other.submit([&](plexus::Handler& h) {
            auto io = data.access(h, plexus::read_write);
            h.host_task([=] { io[1] = 7; });
          });
          require_error([&] { middle.wait(); }, error_category::device, "the writer broke");
        }
        auto reader = other.submit([&](plexus::Handler& h) {
          auto in = data.access(h, plexus::read);
          h.host_task([=] { (void)in[0]; });
        });
        require_error([&] { reader.wait(); }, error_category::device, "the writer broke");
        require_error([&] { data.host_access(plexus::read); }, error_category::device,
                      "the writer broke");
      }
    }
  }
}

TEST_CASE("failures nobody observed go to the async handler, observed ones do not") {
  for (const char* scheduler : schedulers) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      std::vector<std::string> handled;
      plexus::RuntimeOptions options;
      options.async_handler = [&](const std::vector<std::exception_ptr>& errors) {
        for (const auto& failure : errors) {
          try {
            std::rethrow_exception(failure);
          } catch (const std::exception& e) {
            handled.push_back(e.what());
          }
        }
      };
      {
        auto rt = runtime_with(scheduler, options);
        rt->host_task([] { throw std::runtime_error("lost task"); });
        auto seen = rt->host_task([] { throw std::runtime_error("seen task"); });
        CHECK_THROWS_WITH(seen->wait(), "seen task");
        rt->wait();  // hands over what nobody observed
        REQUIRE(handled == std::vector<std::string>{"lost task"});
        rt->host_task([] { throw std::runtime_error("lost at the end"); });
      }  // the destructor hands over the rest
      CHECK(handled == std::vector<std::string>{"lost task", "lost at the end"});
    }
  }
}

TEST_CASE("waiting for work that needs a host view the waiting thread holds throws, never hangs") {
  for (const char* scheduler : schedulers) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      auto rt = runtime_with(scheduler);
      plexus::Queue q = rt->queue();
      plexus::Buffer<int> data(plexus::Range{8});
      {
        auto view = data.host_access(plexus::write);
        view[0] = 5;
        auto blocked = q.submit([&](plexus::Handler& h) {
          auto io = data.access(h, plexus::read_write);
          h.host_task([=] { io[0] += 1; });
        });
        require_error([&] { q.wait(); }, error_category::invalid_argument,
                      "still holds");
      }
      // Once the view is gone, the data is usable again. Under inorder the blocked group
      // failed at submission; under the others it waited and runs now.
      const bool inorder = std::string(scheduler) == "inorder";
      plexus::Queue fresh = rt->queue();
      fresh.submit([&](plexus::Handler& h) {
        auto io = data.access(h, plexus::read_write);
        h.host_task([=] { io[0] += 10; });
      });
      CHECK_NOTHROW(fresh.wait());
      CHECK(data.host_access()[0] == (inorder ? 15 : 16));

      // The same through Runtime::wait: it throws (or, under inorder, the group failed).
      {
        auto view = data.host_access(plexus::write);
        rt->queue().submit([&](plexus::Handler& h) {
          auto io = data.access(h, plexus::read_write);
          h.host_task([=] { io[0] += 1; });
        });
        if (!inorder) require_error([&] { rt->wait(); }, error_category::invalid_argument, "still holds");
      }
      rt->wait();
      CHECK(data.host_access()[0] == (inorder ? 15 : 17));
    }
  }
}

TEST_CASE("wait_for on events and queues returns false while work runs") {
  auto rt = runtime_with("dag");
  plexus::Queue q = rt->queue();
  std::atomic<bool> release{false};
  auto slow = q.submit([&](plexus::Handler& h) {
    h.host_task([&] {
      while (!release.load()) std::this_thread::sleep_for(1ms);
    });
  });
  CHECK_FALSE(slow.wait_for(20ms));
  CHECK_FALSE(q.wait_for(20ms));
  release = true;
  CHECK(slow.wait_for(10s));
  CHECK(q.wait_for(10s));
  auto failed = q.submit([&](plexus::Handler& h) {
    h.host_task([] { throw plexus::error(error_category::device, "broken"); });
  });
  require_error([&] { failed.wait_for(10s); }, error_category::device, "broken");
}

namespace {
// A kernel whose every work-item runs long (a kernel that "never ends" in practice).
const char* const spinning = R"(
__kernel void spin(__global int* out, int rounds) {
  int x = (int)get_global_id(0);
  for (int i = 0; i < rounds; ++i) x = x * 1103515245 + 12345;
  out[get_global_id(0)] = x;
}
)";
}  // namespace

TEST_CASE("cancel stops a host-backend kernel at a work-group boundary") {
  auto rt = runtime_with("dag");
  plexus::Queue q = rt->queue();
  auto kernel = rt->build(spinning).kernel("spin");
  const std::size_t n = 1 << 16;
  plexus::Buffer<int> out(plexus::Range{n});
  const auto start = std::chrono::steady_clock::now();
  auto launch = q.submit([&](plexus::Handler& h) {
    // About 2^16 work-items x 2^20 rounds: minutes of work if it ran to the end.
    h.parallel_for(kernel, plexus::nd_range(plexus::Range{n}, plexus::Range{16}),
                   out.access(h, plexus::discard_write), 1 << 20);
  });
  std::this_thread::sleep_for(50ms);
  launch.cancel();
  require_error([&] { launch.wait(); }, error_category::cancelled, "cancelled");
  CHECK(std::chrono::steady_clock::now() - start < 30s);

  // Not started yet: it never runs (another queue: this one's next group would fail with
  // the cancelled kernel's error).
  q = rt->queue();
  std::atomic<bool> ran{false};
  std::atomic<bool> release{false};
  auto first = q.submit([&](plexus::Handler& h) {
    h.host_task([&] {
      while (!release.load()) std::this_thread::sleep_for(1ms);
    });
  });
  auto second = q.submit([&](plexus::Handler& h) { h.host_task([&] { ran = true; }); });
  second.cancel();
  release = true;
  first.wait();
  require_error([&] { second.wait(); }, error_category::cancelled, "cancelled before it started");
  CHECK_FALSE(ran.load());
}

TEST_CASE("a runtime whose task never ends returns from its destructor after the deadline") {
  plexus::RuntimeOptions options;
  options.shutdown_timeout = 200ms;
  auto rt = runtime_with("dag", options);
  static std::atomic<bool> stop{false};  // outlives the runtime: the task still reads it
  rt->host_task([] {
    while (!stop.load()) std::this_thread::sleep_for(1ms);  // ignores cancel: host work
  });
  const auto start = std::chrono::steady_clock::now();
  rt.reset();
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(took >= 400ms);  // the deadline, a cancel, the deadline again
  CHECK(took < 10s);
  stop = true;  // the task ends; its runtime stays allocated until exit
}
