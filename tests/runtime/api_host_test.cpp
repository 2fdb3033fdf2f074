// Application API with host tasks and host accesses, over every memory policy and both
// schedulers: results, dependencies, uninitialized and discarded data, events.
#include <catch2/catch.hpp>

#include <spdlog/sinks/ostream_sink.h>

#include <algorithm>
#include <atomic>
#include <sstream>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "plexus/log.hpp"
#include "runtime_test_support.hpp"

using plexus::test::make_runtime;
using plexus::test::runtime_matrix;

TEST_CASE("host tasks compute through buffers, in order, under every policy and scheduler") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice);
      plexus::Queue q = rt->queue();
      std::vector<int> input(1000);
      std::iota(input.begin(), input.end(), 0);
      plexus::Buffer<int> a(input.data(), input.size());
      plexus::Buffer<int> b(plexus::Range{1000});

      q.submit([&](plexus::Handler& h) {
        auto in = a.access(h, plexus::read);
        auto out = b.access(h, plexus::discard_write);
        h.host_task([=] {
          for (std::size_t i = 0; i < 1000; ++i) out[i] = in[i] * 2;
        });
      });
      q.submit([&](plexus::Handler& h) {
        auto io = b.access(h, plexus::read_write, plexus::Range{500}, plexus::Range{500});
        h.host_task([=] {
          for (std::size_t i = 500; i < 1000; ++i) io[i] += 1;
        });
      });
      std::vector<int> result(1000);
      b.copy_to(result.data());
      for (std::size_t i = 0; i < 1000; ++i) {
        REQUIRE(result[i] == static_cast<int>(i) * 2 + (i >= 500 ? 1 : 0));
      }
      // The input is unchanged; only host memory was involved: no copies at all.
      auto view = a.host_access(plexus::read);
      CHECK(view[999] == 999);
      CHECK(rt->memory_report().copies() == 0);
    }
  }
}

namespace {

using namespace std::chrono_literals;

// Both tasks wait for the other to have started: true when they overlapped. The bound (a
// minute) only turns "never" into false; 5 s raced a loaded machine's thread starts.
struct Rendezvous {
  std::atomic<int> started{0};
  bool meet() {
    ++started;
    const auto deadline = std::chrono::steady_clock::now() + 1min;
    while (started.load() < 2) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }
};

}  // namespace

TEST_CASE("dependencies: read after write and write after read are ordered, events time them") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice);
      plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
      plexus::Buffer<int> data(plexus::Range{64});
      std::atomic<int> seen{-1};
      auto writer = q.submit([&](plexus::Handler& h) {
        auto out = data.access(h, plexus::discard_write);
        h.host_task([=] {
          std::this_thread::sleep_for(20ms);
          for (std::size_t i = 0; i < 64; ++i) out[i] = 7;
        });
      });
      auto reader = q.submit([&](plexus::Handler& h) {
        auto in = data.access(h, plexus::read);
        h.host_task([=, &seen] {
          std::this_thread::sleep_for(20ms);
          seen = in[63];
        });
      });
      auto overwriter = q.submit([&](plexus::Handler& h) {
        auto out = data.access(h, plexus::discard_write);
        h.host_task([=] {
          for (std::size_t i = 0; i < 64; ++i) out[i] = 9;
        });
      });
      q.wait();
      CHECK(seen == 7);  // the reader ran after the writer and before the overwriter
      CHECK(writer.end_time() <= reader.start_time());
      CHECK(reader.end_time() <= overwriter.start_time());
      for (const auto& event : {writer, reader, overwriter}) {
        CHECK(event.status() == plexus::TaskStatus::complete);
        CHECK(event.submit_time() <= event.start_time());
        CHECK(event.start_time() <= event.end_time());
      }
      CHECK(data.host_access()[0] == 9);
      // inorder runs each group at submission: earlier ones are done, nothing to depend on.
      if (choice.scheduler == "dag") CHECK(rt->memory_report().dependencies >= 2);
    }
  }
}

TEST_CASE("independent command groups run concurrently under dag (a real overlap)") {
  for (const char* memory : {"whole", "paged", "exact"}) {
    DYNAMIC_SECTION("memory/" << memory) {
      auto rt = make_runtime({"dag", memory}, "\"host\", \"opencl\"",
                             "[scheduler.dag]\nworkers = 4\n");
      plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
      plexus::Buffer<int> a(plexus::Range{16}), b(plexus::Range{16});
      Rendezvous rendezvous;
      std::atomic<int> overlapped{0};
      for (auto* buffer : {&a, &b}) {
        q.submit([&, buffer](plexus::Handler& h) {
          auto out = buffer->access(h, plexus::discard_write);
          h.host_task([=, &rendezvous, &overlapped] {
            if (rendezvous.meet()) ++overlapped;
            out[0] = 1;
          });
        });
      }
      q.wait();
      CHECK(overlapped == 2);
    }
  }
}

TEST_CASE("disjoint halves of one buffer overlap under exact and paged, not under whole") {
  for (const char* memory : {"whole", "paged", "exact"}) {
    DYNAMIC_SECTION("memory/" << memory) {
      auto rt = make_runtime({"dag", memory}, "\"host\", \"opencl\"",
                             "[scheduler.dag]\nworkers = 4\n");
      plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
      plexus::Buffer<int> data(plexus::Range{1024}, {.page_extent = {512, 1, 1}});
      std::vector<plexus::Event> events;
      // Where they may overlap, each waits for the other (so they do, however late the
      // second starts on a loaded machine); under whole the second depends on the first,
      // which sleeps so that running them at once anyway would show.
      const bool may_overlap = std::string(memory) != "whole";
      Rendezvous rendezvous;
      for (std::size_t half = 0; half < 2; ++half) {
        events.push_back(q.submit([&, half](plexus::Handler& h) {
          auto out = data.access(h, plexus::discard_write, plexus::Range{512},
                                 plexus::Range{half * 512});
          h.host_task([=, &rendezvous] {
            if (may_overlap)
              rendezvous.meet();
            else
              std::this_thread::sleep_for(100ms);
            for (std::size_t i = half * 512; i < half * 512 + 512; ++i) out[i] = int(half);
          });
        }));
      }
      q.wait();
      const bool overlapped = events[1].start_time() < events[0].end_time();
      CHECK(overlapped == (std::string(memory) != "whole"));
      auto view = data.host_access(plexus::read);
      CHECK(view[0] == 0);
      CHECK(view[1023] == 1);
    }
  }
}

TEST_CASE("in-order queues chain command groups that share no buffer") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice, "\"host\", \"opencl\"", "[scheduler.dag]\nworkers = 4\n");
      plexus::Queue q = rt->queue();
      CHECK(q.order() == plexus::QueueOrder::in_order);
      std::vector<int> order;
      std::vector<plexus::Event> events;
      for (int i = 0; i < 5; ++i) {
        events.push_back(q.submit([&, i](plexus::Handler& h) {
          h.host_task([&, i] {
            std::this_thread::sleep_for(5ms);
            order.push_back(i);
          });
        }));
      }
      q.wait();
      CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
      for (std::size_t i = 1; i < events.size(); ++i) {
        CHECK(events[i - 1].end_time() <= events[i].start_time());
      }
    }
  }
}

TEST_CASE("a host view holds back conflicting work until it is released (dag)") {
  auto rt = make_runtime({"dag", "exact"});
  plexus::Queue q = rt->queue();
  plexus::Buffer<int> data(plexus::Range{8});
  auto view = std::make_unique<plexus::HostView<int, 1>>(data.host_access(plexus::discard_write));
  for (std::size_t i = 0; i < 8; ++i) (*view)[i] = 3;
  std::atomic<int> seen{0};
  auto reader = q.submit([&](plexus::Handler& h) {
    auto in = data.access(h, plexus::read);
    h.host_task([=, &seen] { seen = in[7]; });
  });
  std::this_thread::sleep_for(50ms);
  CHECK(reader.status() == plexus::TaskStatus::submitted);
  view.reset();
  reader.wait();
  CHECK(seen == 3);
}

TEST_CASE("uninitialized data never transfers, a failing task fails its dependents") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice);
      plexus::Buffer<float, 2> never_written(plexus::Range{4, 4});
      { auto view = never_written.host_access(plexus::read); }  // allowed: uninitialized
      CHECK(rt->memory_report().copies() == 0);

      plexus::Queue q = rt->queue();
      plexus::Buffer<int> data(plexus::Range{4});
      auto failing = q.submit([&](plexus::Handler& h) {
        auto out = data.access(h, plexus::write);
        h.host_task([] { throw std::runtime_error("host task exploded"); });
      });
      bool ran = false;
      auto dependent = q.submit([&](plexus::Handler& h) {
        auto in = data.access(h, plexus::read);
        h.host_task([&ran] { ran = true; });
      });
      CHECK_THROWS_WITH(dependent.wait(), Catch::Contains("host task exploded"));
      CHECK(failing.status() == plexus::TaskStatus::failed);
      CHECK_FALSE(ran);
      CHECK_THROWS_WITH(q.wait(), Catch::Contains("host task exploded"));
    }
  }
}

TEST_CASE("the last copy of a buffer waits for the tasks that use it") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice);
      plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
      std::atomic<bool> finished{false};
      {
        plexus::Buffer<int> data(plexus::Range{16});
        plexus::Buffer<int> copy = data;  // shares the buffer
        q.submit([&](plexus::Handler& h) {
          auto out = copy.access(h, plexus::discard_write);
          h.host_task([=, &finished] {
            std::this_thread::sleep_for(50ms);
            out[0] = 1;
            finished = true;
          });
        });
      }
      CHECK(finished);
    }
  }
}

TEST_CASE("depends_on orders groups that share no buffer on an out-of-order queue") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice, "\"host\", \"opencl\"", "[scheduler.dag]\nworkers = 4\n");
      plexus::Queue q = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
      std::atomic<int> step{0};
      int seen_by_second = -1;
      auto first = q.submit([&](plexus::Handler& h) {
        h.host_task([&] {
          std::this_thread::sleep_for(30ms);
          step = 1;
        });
      });
      auto second = q.submit([&](plexus::Handler& h) {
        h.depends_on(first);
        h.host_task([&] { seen_by_second = step.load(); });
      });
      second.wait();
      CHECK(seen_by_second == 1);
      CHECK(first.end_time() <= second.start_time());
    }
  }
}

TEST_CASE("the memory report is logged at debug level (not info) when the runtime goes") {
  // What the log holds for a runtime at `level` that ran one host task.
  auto logged_at = [](const std::string& level) {
    std::ostringstream captured;
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(captured);
    plexus::logger().sinks().push_back(sink);
    {
      plexus::Config config = plexus::test::runtime_config({"inorder", "exact"});
      config.set("log.level", level, "test");
      plexus::Runtime rt(config);
      plexus::Queue q = rt.queue();
      plexus::Buffer<int> data(plexus::Range{4});
      q.submit([&](plexus::Handler& h) {
        auto out = data.access(h, plexus::discard_write);
        h.host_task([=] { out[0] = 1; });
      });
      CHECK_THAT(rt.memory_report_text(), Catch::Contains("1 accesses"));
    }
    auto& sinks = plexus::logger().sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink), sinks.end());
    return captured.str();
  };
  CHECK_THAT(logged_at("debug"), Catch::Contains("plexus memory report: 1 accesses"));
  CHECK_THAT(logged_at("info"), !Catch::Contains("plexus memory report"));  // short tools stay quiet
}

TEST_CASE("threads sharing an in-order queue and a buffer never deadlock") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice, "\"host\", \"opencl\"", "[scheduler.dag]\nworkers = 4\n");
      plexus::Queue q = rt->queue();
      plexus::Buffer<int> counter(plexus::Range{1});
      {
        auto init = counter.host_access(plexus::discard_write);
        init[0] = 0;
      }
      std::vector<std::thread> threads;
      for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
          for (int i = 0; i < 25; ++i) {
            q.submit([&](plexus::Handler& h) {
              auto io = counter.access(h, plexus::read_write);
              h.host_task([=] { io[0] += 1; });
            });
          }
        });
      }
      for (auto& thread : threads) thread.join();
      q.wait();
      CHECK(counter.host_access()[0] == 100);
    }
  }
}
