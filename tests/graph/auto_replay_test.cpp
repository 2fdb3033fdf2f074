// Automatic replay (issue 16 item 3) on the host device: a queue that submits the same
// period of kernels again and again replays it as a graph after a few periods (the trace
// shows the replays), with the results, events and errors of plain submission; anything that
// breaks the pattern, halfway through a period too, falls back at once; several threads and
// PoCL (no device graphs) stay correct; PLEXUS_AUTO_GRAPH=0 and the config key turn it off.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../runtime/runtime_test_support.hpp"
#include "graph_test_kernels.hpp"

using plexus::AccessMode;
using plexus::Buffer;
using plexus::Handler;
using plexus::Queue;
using plexus::Range;
using plexus::test::runtime_config;

namespace {

const char* const source = plexus::test::graph_test_source;

constexpr std::size_t n = 128;

std::vector<float> start_values(float first) {
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = first + float(i % 7);
  return values;
}

using plexus::test::contents;

std::string graphs_table(bool on) {
  return std::string("[graphs]\nauto = ") + (on ? "true" : "false") +
         "\nauto_repeats = 3\nauto_batch = 8\n";
}

std::filesystem::path trace_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("plexus-auto-replay-" + name + "-" + std::to_string(::getpid()) + ".json");
}

std::size_t count_in_file(const std::filesystem::path& path, const std::string& text) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string body = all.str();
  std::size_t count = 0;
  for (auto at = body.find(text); at != std::string::npos; at = body.find(text, at + 1)) ++count;
  return count;
}

// A program with a period of three kernels whose scalars change every period, and the
// pattern breaks given by `breaks` (called between kernels, with their position).
struct Program {
  std::vector<float> x, y;
  std::size_t replays = 0;  // units replayed (from the trace)
};

template <class Breaks>
Program run(bool automatic, const std::string& backends, int periods, Breaks&& breaks,
            const std::string& name, const std::string& scheduler = "dag") {
  const auto trace = trace_path(name + (automatic ? "-on" : "-off"));
  Program result;
  {
    plexus::Runtime rt(runtime_config({scheduler, "exact"}, backends,
                                      graphs_table(automatic) + "[trace]\nfile = \"" +
                                          trace.string() + "\"\n"));
    if (rt.devices().empty()) return result;
    Queue q = rt.queue();
    const plexus::KernelBundle bundle = rt.build(source);
    const plexus::Kernel axpb = bundle.kernel("axpb"), accumulate = bundle.kernel("accumulate");
    Buffer<float> x(start_values(1).data(), n), y(start_values(2).data(), n);
    Buffer<float> other(start_values(3).data(), n);
    int position = 0;
    plexus::Event last;
    for (int p = 0; p < periods; ++p) {
      const float a = 1.0f + 0.001f * float(p % 5);  // scalars change between periods
      last = q.submit([&](Handler& h) {
        h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), a, 0.5f);
      });
      breaks(q, x, y, other, bundle, position++, last);
      last = q.submit([&](Handler& h) {
        h.parallel_for(accumulate, Range{n}, x.access(h, AccessMode::read),
                       y.access(h, AccessMode::read_write));
      });
      breaks(q, x, y, other, bundle, position++, last);
      last = q.submit([&](Handler& h) {
        h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), 0.5f, -a);
      });
      breaks(q, x, y, other, bundle, position++, last);
    }
    q.wait();
    result.x = contents(x);
    result.y = contents(y);
    std::vector<float> o = contents(other);
    result.y.insert(result.y.end(), o.begin(), o.end());
  }
  result.replays = count_in_file(trace, "(automatic replay)");
  std::filesystem::remove(trace);
  std::filesystem::remove(trace.string() + ".summary.json");
  return result;
}

const auto no_breaks = [](Queue&, Buffer<float>&, Buffer<float>&, Buffer<float>&,
                          const plexus::KernelBundle&, int, const plexus::Event&) {};

}  // namespace

TEST_CASE("automatic replay starts after a few periods and gives the results of plain "
          "submission", "[graph][auto]") {
  for (const char* scheduler : {"inorder", "dag"}) {
    INFO(scheduler);
    const Program plain = run(false, "\"host\"", 40, no_breaks, "start", scheduler);
    const Program replayed = run(true, "\"host\"", 40, no_breaks, "start", scheduler);
    CHECK(plain.replays == 0);
    CHECK(replayed.replays >= 8);  // 120 kernels, units of 9 after 3 periods
    CHECK(replayed.x == plain.x);
    CHECK(replayed.y == plain.y);
  }
}

TEST_CASE("automatic replay stops when the pattern breaks, halfway through a period too",
          "[graph][auto]") {
  // Every 29th kernel (so at every position of the period in turn) something breaks it:
  // another kernel, a host task, a host access, a wait, an event wait, another buffer, a
  // poll of a held kernel's event.
  const auto breaks = [](Queue& q, Buffer<float>& x, Buffer<float>& y, Buffer<float>& other,
                         const plexus::KernelBundle& bundle, int position,
                         const plexus::Event& last) {
    if (position % 29 != 28) return;
    switch ((position / 29) % 7) {
      case 0:
        q.submit([&](Handler& h) {
          h.parallel_for(bundle.kernel("accumulate"), Range{n}, y.access(h, AccessMode::read),
                         other.access(h, AccessMode::read_write));
        });
        break;
      case 1:
        q.submit([&](Handler& h) {
          auto acc = other.access(h, AccessMode::read_write);
          h.host_task([acc] { acc[0] += 1.0f; });
        });
        break;
      case 2: {
        auto view = x.host_access(AccessMode::read_write);
        view[1] += 2.0f;
        break;
      }
      case 3:
        q.wait();
        break;
      case 4:
        q.submit([&](Handler& h) {
           h.parallel_for(bundle.kernel("axpb"), Range{n}, x.access(h, AccessMode::read_write),
                          1.0f, 0.25f);
         }).wait();
        break;
      case 5:
        q.submit([&](Handler& h) {
          h.parallel_for(bundle.kernel("axpb"), Range{n}, other.access(h, AccessMode::read_write),
                         1.0f, 1.0f);
        });
        break;
      case 6: {
        // The event of the kernel just submitted (held, halfway through a unit): polling it
        // must see it end.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!last.is_done() && std::chrono::steady_clock::now() < deadline)
          std::this_thread::yield();
        CHECK(last.is_done());
        break;
      }
    }
  };
  const Program plain = run(false, "\"host\"", 80, breaks, "breaks");
  const Program replayed = run(true, "\"host\"", 80, breaks, "breaks");
  CHECK(replayed.replays >= 2);  // it starts again after each break
  CHECK(replayed.x == plain.x);
  CHECK(replayed.y == plain.y);
}

TEST_CASE("automatic replay on a device without device graphs gives the same results",
          "[graph][auto]") {
  const Program plain = run(false, "\"opencl\"", 20, no_breaks, "pocl");
  if (plain.x.empty()) {
    WARN("no OpenCL device here: skipped");
    return;
  }
  const Program replayed = run(true, "\"opencl\"", 20, no_breaks, "pocl");
  CHECK(replayed.replays >= 3);
  CHECK(replayed.x == plain.x);
  CHECK(replayed.y == plain.y);
}

TEST_CASE("automatic replay on a CUDA device gives the same results", "[graph][auto][cuda]") {
  const Program plain = run(false, "\"cuda\"", 30, no_breaks, "cuda");
  if (plain.x.empty()) {
    WARN("no CUDA device here (see `plexus info`: the cuda backend says why): skipped");
    return;
  }
  const Program replayed = run(true, "\"cuda\"", 30, no_breaks, "cuda");
  CHECK(replayed.replays >= 3);
  CHECK(replayed.x == plain.x);
  CHECK(replayed.y == plain.y);
}

TEST_CASE("automatic replay with several threads submitting stays correct", "[graph][auto]") {
  plexus::Runtime rt(runtime_config({"dag", "exact"}, "\"host\"", graphs_table(true)));
  const plexus::Kernel axpb = rt.build(source).kernel("axpb");
  constexpr int threads = 4, kernels = 200;
  Buffer<float> shared(std::vector<float>(n, 0.0f).data(), n);
  std::vector<std::unique_ptr<Buffer<float>>> own;
  for (int t = 0; t < threads; ++t)
    own.push_back(std::make_unique<Buffer<float>>(std::vector<float>(n, 0.0f).data(), n));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      Queue q = rt.queue();
      for (int k = 0; k < kernels; ++k) {
        Buffer<float>& target = k % 10 == 9 ? shared : *own[t];  // conflicts across queues
        q.submit([&](Handler& h) {
          h.parallel_for(axpb, Range{n}, target.access(h, AccessMode::read_write), 1.0f, 1.0f);
        });
      }
      q.wait();
    });
  }
  for (auto& worker : workers) worker.join();
  CHECK(contents(shared) == std::vector<float>(n, float(threads * kernels / 10)));
  for (auto& buffer : own) CHECK(contents(*buffer) == std::vector<float>(n, float(kernels * 9 / 10)));
}

TEST_CASE("kernels held for automatic replay run when their queue's last handle goes",
          "[graph][auto]") {
  plexus::Runtime rt(runtime_config({"dag", "exact"}, "\"host\"", graphs_table(true)));
  const plexus::Kernel axpb = rt.build(source).kernel("axpb");
  Buffer<float> x(std::vector<float>(n, 0.0f).data(), n);
  {
    Queue q = rt.queue();
    // Period 1 seen 3 times, then units of 8: kernels 4-11 and 12-19 replayed, 20 held.
    for (int k = 0; k < 20; ++k)
      q.submit([&](Handler& h) {
        h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), 1.0f, 1.0f);
      });
  }
  CHECK(contents(x) == std::vector<float>(n, 20.0f));
}

TEST_CASE("automatic replay is on by default", "[graph][auto]") {
  CHECK(plexus::Config::from_string("[log]\nlevel = \"warn\"\n", "t.toml").auto_graph().enabled);
  ::unsetenv("PLEXUS_AUTO_GRAPH");
  const plexus::Config in_force = plexus::Config::load();
  CHECK(in_force.auto_graph().enabled);
}

TEST_CASE("PLEXUS_AUTO_GRAPH=0 and [graphs] auto = false turn automatic replay off",
          "[graph][auto]") {
  ::setenv("PLEXUS_AUTO_GRAPH", "0", 1);
  const plexus::Config off = plexus::Config::load();
  ::unsetenv("PLEXUS_AUTO_GRAPH");
  CHECK_FALSE(off.auto_graph().enabled);
  ::setenv("PLEXUS_AUTO_GRAPH", "1", 1);
  const plexus::Config on = plexus::Config::load();
  ::unsetenv("PLEXUS_AUTO_GRAPH");
  CHECK(on.auto_graph().enabled);
  CHECK_FALSE(plexus::Config::from_string("[graphs]\nauto = false\n", "t.toml").auto_graph().enabled);
  plexus::test::require_error(
      [] { plexus::Config::from_string("[graphs]\nauto_batch = 0\n", "t.toml"); },
      plexus::error_category::config, "auto_batch");
}

TEST_CASE("under dag, a replayed chain of quick kernels ends on the submitting thread, its "
          "command too", "[graph][auto][dag]") {
  // The command that ends the kernels a wait releases (a join, plexus/task.hpp) used to be
  // a host task that dag gave to a worker: a wake-up per wait, milliseconds on a loaded
  // machine (issue 21 item 11). inline_us: 100 ms, so that a preempted start still counts as
  // quick.
  plexus::Runtime rt(runtime_config({"dag", "exact"}, "\"host\"",
                                    graphs_table(true) + "[scheduler.dag]\ninline_us = 100000\n"));
  const plexus::Kernel axpb = rt.build(source).kernel("axpb");
  Buffer<float> x(std::vector<float>(n, 0.0f).data(), n);
  Queue q = rt.queue();
  const auto bump = [&](Handler& h) {
    h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), 1.0f, 1.0f);
  };
  q.submit(bump);  // the first task on a queue goes to its worker; the rest follow here
  q.wait();
  plexus::Event last;
  for (int k = 0; k < 30; ++k) last = q.submit(bump);  // units of 8 replayed, a few held
  const std::shared_ptr<plexus::TaskEvent> command = last.task_event();
  REQUIRE_FALSE(command->is_done());  // held: the wait releases it (a poll of `last` would)
  std::atomic<bool> recorded{false};
  std::thread::id completed_on;
  command->on_done([&] {
    completed_on = std::this_thread::get_id();
    recorded = true;
  });
  q.wait();
  REQUIRE(recorded);
  CHECK(completed_on == std::this_thread::get_id());
  CHECK(contents(x) == std::vector<float>(n, 31.0f));
}
