// Bad input to the application API: clear plexus::errors, never a crash or a hang.
#include <catch2/catch.hpp>

#include <vector>

#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::make_runtime;
using plexus::test::require_error;

TEST_CASE("accesses outside a buffer's range are refused with the range and the extent") {
  auto rt = make_runtime({"inorder", "exact"});
  plexus::Queue q = rt->queue();
  plexus::Buffer<int> data(plexus::Range{100});
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) {
          data.access(h, plexus::read, plexus::Range{10}, plexus::Range{95});
        });
      },
      error_category::invalid_argument, "lies outside the buffer of extent {100}");
  require_error([&] { data.host_access(plexus::read, plexus::Range{0}); },
                error_category::invalid_argument, "is empty");
  plexus::Buffer<int, 3> cube(plexus::Range{4, 4, 4});
  require_error(
      [&] { cube.host_access(plexus::write, plexus::Range{2, 2, 2}, plexus::Range{0, 3, 0}); },
      error_category::invalid_argument, "dimension 1");
  require_error([] { plexus::Buffer<int, 2> empty(plexus::Range{3, 0}); },
                error_category::invalid_argument, "has a zero in dimension 1");
  require_error([] { plexus::Buffer<double, 2> huge(plexus::Range{SIZE_MAX / 4, 4}); },
                error_category::invalid_argument, "the size overflows");
  require_error(
      [] {
        plexus::Buffer<char, 3> too_big(plexus::Range{std::size_t(1) << 24, 1 << 20, 1 << 10});
        too_big.host_access(plexus::discard_write);
      },
      error_category::device, "cannot allocate");
  // The failed submissions left nothing behind: the buffer still works.
  q.submit([&](plexus::Handler& h) {
    auto out = data.access(h, plexus::discard_write);
    h.host_task([=] { out[99] = 5; });
  });
  CHECK(data.host_access()[99] == 5);
}

TEST_CASE("one command per group, and a non-empty host task") {
  auto rt = make_runtime({"inorder", "whole"});
  plexus::Queue q = rt->queue();
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) {
          h.host_task([] {});
          h.host_task([] {});
        });
      },
      error_category::invalid_argument, "one command");
  require_error([&] { q.submit([&](plexus::Handler& h) { h.host_task(std::function<void()>()); }); },
                error_category::invalid_argument, "empty");
  // An empty group is a barrier: it completes.
  q.submit([](plexus::Handler&) {}).wait();
}

TEST_CASE("objects used after their runtime is destroyed throw, and destroy cleanly") {
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice);
      plexus::Queue q = rt->queue();
      std::vector<int> host(32, 1);
      plexus::Buffer<int> data(host.data(), host.size());
      plexus::Event event = q.submit([&](plexus::Handler& h) {
        auto io = data.access(h, plexus::read_write);
        h.host_task([=] { io[0] = 2; });
      });
      rt.reset();  // waits for the task, releases the buffer's allocations
      require_error([&] { data.host_access(plexus::read); }, error_category::invalid_argument,
                    "after its plexus::Runtime was destroyed");
      require_error([&] { q.submit([](plexus::Handler& h) { h.host_task([] {}); }); },
                    error_category::invalid_argument, "a queue was used after");
      require_error([&] { event.wait(); }, error_category::invalid_argument,
                    "an event was used after");
      require_error([&] { q.wait(); }, error_category::invalid_argument, "after");
    }  // the buffer, queue and event go here, after their runtime: no crash
  }
}

TEST_CASE("a buffer belongs to the runtime it was first used with") {
  auto first = make_runtime({"inorder", "whole"});
  auto second = make_runtime({"inorder", "whole"});
  plexus::Buffer<int> data(plexus::Range{4});
  plexus::Queue q1 = first->queue(), q2 = second->queue();
  q1.submit([&](plexus::Handler& h) {
    auto out = data.access(h, plexus::discard_write);
    h.host_task([=] { out[0] = 1; });
  });
  require_error(
      [&] { q2.submit([&](plexus::Handler& h) { data.access(h, plexus::read); }); },
      error_category::invalid_argument, "belongs to another plexus::Runtime");
}

TEST_CASE("kernel sources that do not compile are build errors with the compiler's log") {
  auto rt = make_runtime({"inorder", "whole"});
  require_error([&] { rt->build("__kernel void broken(__global int* x) { x[0] = undeclared; }"); },
                error_category::build, "undeclared");
  // The failure is not cached: the same source fails again (and builds again).
  require_error([&] { rt->build("__kernel void broken(__global int* x) { x[0] = undeclared; }"); },
                error_category::build, "undeclared");
  CHECK(rt->program_cache_stats().programs.builds == 0);
  CHECK(rt->program_cache_stats().programs.misses >= 2);
}

TEST_CASE("a queue on a device of another runtime is refused") {
  auto first = make_runtime({"inorder", "whole"});
  auto second = make_runtime({"inorder", "whole"});
  require_error([&] { first->queue(*second->devices().front()); },
                error_category::invalid_argument, "is not one of this runtime's devices");
}

TEST_CASE("a host view held past its runtime does not hang the runtime's destruction") {
  auto rt = make_runtime({"dag", "exact"});
  plexus::Queue q = rt->queue();
  plexus::Buffer<int> data(plexus::Range{8});
  q.submit([&](plexus::Handler& h) {
    auto out = data.access(h, plexus::discard_write);
    h.host_task([=] { out[0] = 1; });
  });
  auto view = data.host_access(plexus::read_write);
  auto waiting = q.submit([&](plexus::Handler& h) {
    auto in = data.access(h, plexus::read);
    h.host_task([] {});
  });
  CHECK(waiting.status() == plexus::TaskStatus::submitted);
  rt.reset();  // releases the view (with a warning), runs the waiting group, finishes
  CHECK(view[0] == 1);
}

TEST_CASE("work that waits for a view its own thread holds fails instead of hanging (inorder)") {
  auto rt = make_runtime({"inorder", "whole"});
  plexus::Queue q = rt->queue();
  plexus::Buffer<int> data(plexus::Range{8});
  q.submit([&](plexus::Handler& h) {
    auto out = data.access(h, plexus::discard_write);
    h.host_task([=] { out[0] = 1; });
  });
  {
    auto view = data.host_access(plexus::write);
    // inorder runs the group now, on this thread, which holds the view it waits for.
    auto blocked = q.submit([&](plexus::Handler& h) {
      auto in = data.access(h, plexus::read);
      h.host_task([] {});
    });
    require_error([&] { blocked.wait(); }, error_category::invalid_argument,
                  "host view that the submitting thread still holds");
  }
  // In an in-order queue a failed group fails the groups after it; on another queue, once
  // the view is gone, work on the data runs.
  plexus::Queue fresh = rt->queue();
  auto after = fresh.submit([&](plexus::Handler& h) {
    auto io = data.access(h, plexus::read_write);
    h.host_task([=] { io[0] += 1; });
  });
  CHECK_NOTHROW(after.wait());
  CHECK(data.host_access()[0] == 2);
}
