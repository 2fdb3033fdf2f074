// Command graphs (graph.hpp, issue 16) through the application API on the host device, every
// scheduler and memory policy: a recorded and replayed stretch of work gives the results,
// events and errors of plain submission; parameters and buffers change between replays;
// a destroyed buffer invalidates the graph; graphs that cannot run as one task (a host task,
// a native task) and devices without device graphs (PoCL with PLEXUS_OPENCL_COMMAND_BUFFERS=0,
// a CTest case of its own) fall back with the same results;
// submissions from several threads stay correct.
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "../runtime/runtime_test_support.hpp"
#include "graph_test_kernels.hpp"
#include "plexus/graph.hpp"

using plexus::AccessMode;
using plexus::Buffer;
using plexus::CommandGraph;
using plexus::ExecutableGraph;
using plexus::GraphParameter;
using plexus::Handler;
using plexus::Queue;
using plexus::Range;
using plexus::test::make_runtime;
using plexus::test::require_error;
using plexus::test::runtime_matrix;

namespace {

const char* const source = plexus::test::graph_test_source;

constexpr std::size_t n = 256;

std::vector<float> iota_values(float start) {
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = start + float(i % 17);
  return values;
}

using plexus::test::contents;

// One step: x = x * a + b; y += x; x = x * 0.5 + 1.
struct Step {
  plexus::KernelBundle bundle;
  void submit(Queue& q, Buffer<float>& x, Buffer<float>& y, const GraphParameter<float>& a,
              float b) const {
    const plexus::Kernel axpb = bundle.kernel("axpb"), accumulate = bundle.kernel("accumulate");
    q.submit([&](Handler& h) {
      h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), a, b);
    });
    q.submit([&](Handler& h) {
      h.parallel_for(accumulate, Range{n}, x.access(h, AccessMode::read),
                     y.access(h, AccessMode::read_write));
    });
    q.submit([&](Handler& h) {
      h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), 0.5f, 1.0f);
    });
  }
};

}  // namespace

TEST_CASE("a replayed graph gives the results and events of plain submission", "[graph]") {
  for (const auto& choice : runtime_matrix()) {
    INFO(choice.label());
    auto rt = make_runtime(choice, "\"host\"");
    Queue q = rt->queue();
    const Step step{rt->build(source)};
    Buffer<float> px(iota_values(1).data(), n), py(iota_values(2).data(), n);
    Buffer<float> gx(iota_values(1).data(), n), gy(iota_values(2).data(), n);
    GraphParameter<float> a(1.5f);

    CommandGraph graph;
    graph.begin_recording(q);
    step.submit(q, gx, gy, a, 0.25f);
    graph.end_recording();
    REQUIRE(graph.size() == 3);
    CHECK(contents(gx) == iota_values(1));  // recorded, not run
    ExecutableGraph exec = graph.finalize();
    CHECK(exec.single_task());

    for (int round = 0; round < 5; ++round) {
      a.update(1.0f + 0.125f * float(round));  // the scalar changes between replays
      step.submit(q, px, py, a, 0.25f);
      plexus::Event done = q.submit(exec);
      REQUIRE(done.valid());
      if (round == 2) {
        done.wait();
        CHECK(done.status() == plexus::TaskStatus::complete);
        CHECK(done.end_time() >= done.start_time());
      }
    }
    q.wait();
    CHECK(contents(gx) == contents(px));
    CHECK(contents(gy) == contents(py));

    // Later work depends on the graph through the memory model: a plain kernel after it on
    // an out-of-order queue sees its writes.
    Queue ooo = rt->queue(*rt->devices().front(), plexus::QueueOrder::out_of_order);
    ooo.submit(exec);
    step.submit(ooo, px, py, a, 0.25f);
    ooo.submit([&](Handler& h) {
      h.parallel_for(step.bundle.kernel("axpb"), Range{n}, gx.access(h, AccessMode::read_write),
                     2.0f, 0.0f);
    });
    ooo.submit([&](Handler& h) {
      h.parallel_for(step.bundle.kernel("axpb"), Range{n}, px.access(h, AccessMode::read_write),
                     2.0f, 0.0f);
    });
    CHECK(contents(gx) == contents(px));
    CHECK(contents(gy) == contents(py));
  }
}

TEST_CASE("a graph's failures are those of plain submission", "[graph]") {
  auto rt = make_runtime({"dag", "exact"}, "\"host\"");
  Queue q = rt->queue();
  const Step step{rt->build(source)};
  Buffer<float> x(iota_values(1).data(), n), y(iota_values(2).data(), n);
  GraphParameter<float> a(2.0f);
  auto failing = [&](Queue& queue) {
    queue.submit([&](Handler& h) {
      x.access(h, AccessMode::read_write);
      h.native_task("breaks", {{"host", [](plexus::InteropHandle&) { return 7; }}});
    });
  };
  std::string plain_message;
  try {
    failing(q);
    q.wait();
  } catch (const plexus::error& e) {
    plain_message = e.what();
  }
  REQUIRE_FALSE(plain_message.empty());

  // A native task in the graph: node by node, the same error.
  CommandGraph with_native;
  with_native.begin_recording(q);
  failing(q);
  with_native.end_recording(q);
  ExecutableGraph exec = with_native.finalize();
  CHECK_FALSE(exec.single_task());
  require_error([&] { q.submit(exec).wait(); }, plexus::error_category::device, plain_message);
  require_error([&] { q.wait(); }, plexus::error_category::device, plain_message);

  // A one-task graph reading a buffer whose writer failed fails with the writer's error, as
  // a plain kernel does.
  Buffer<float> z(iota_values(3).data(), n);
  CommandGraph kernels;
  kernels.begin_recording(q);
  step.submit(q, z, y, a, 1.0f);
  kernels.end_recording();
  ExecutableGraph replay = kernels.finalize();
  REQUIRE(replay.single_task());
  q.submit([&](Handler& h) {
    y.access(h, AccessMode::read_write);
    h.native_task("breaks", {{"host", [](plexus::InteropHandle&) { return 7; }}});
  });
  require_error([&] { q.submit(replay).wait(); }, plexus::error_category::device, plain_message);
}

TEST_CASE("graph parameters and rebound buffers change replays without recording again",
          "[graph]") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  Queue q = rt->queue();
  const plexus::Kernel axpb = rt->build(source).kernel("axpb");
  Buffer<float> x(std::vector<float>(n, 1.0f).data(), n), other(std::vector<float>(n, 10.0f).data(), n);
  GraphParameter<float> a(2.0f), b(0.0f);
  CommandGraph graph;
  graph.begin_recording(q);
  q.submit([&](Handler& h) { h.parallel_for(axpb, Range{n}, x.access(h, AccessMode::read_write), a, b); });
  graph.end_recording();
  ExecutableGraph exec = graph.finalize();
  q.submit(exec);                         // 1 * 2 + 0 = 2
  a.update(3.0f);
  b.update(1.0f);
  q.submit(exec);                         // 2 * 3 + 1 = 7
  CHECK(contents(x) == std::vector<float>(n, 7.0f));
  CHECK(a.value() == 3.0f);

  exec.rebind(x, other);
  q.submit(exec);                         // other: 10 * 3 + 1 = 31; x unchanged
  CHECK(contents(other) == std::vector<float>(n, 31.0f));
  CHECK(contents(x) == std::vector<float>(n, 7.0f));

  Buffer<float> shorter(n / 2);
  require_error([&] { exec.rebind(other, shorter); }, plexus::error_category::invalid_argument,
                "extent");
  require_error([&] { exec.rebind(x, other); }, plexus::error_category::invalid_argument,
                "does not use");
}

TEST_CASE("a graph is invalid once a buffer it uses is destroyed", "[graph]") {
  auto rt = make_runtime({"dag", "paged"}, "\"host\"");
  Queue q = rt->queue();
  const plexus::Kernel axpb = rt->build(source).kernel("axpb");
  auto x = std::make_unique<Buffer<float>>(std::vector<float>(n, 1.0f).data(), n);
  CommandGraph graph;
  graph.begin_recording(q);
  q.submit([&](Handler& h) {
    h.parallel_for(axpb, Range{n}, x->access(h, AccessMode::read_write), 2.0f, 0.0f);
  });
  graph.end_recording();
  ExecutableGraph exec = graph.finalize();
  q.submit(exec).wait();
  x.reset();
  require_error([&] { q.submit(exec); }, plexus::error_category::invalid_argument,
                "node 1 (kernel axpb) uses a buffer that has been destroyed");
  require_error([&] { graph.finalize(); }, plexus::error_category::invalid_argument, "destroyed");
}

TEST_CASE("recording mistakes are clear errors", "[graph]") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  Queue q = rt->queue();
  CommandGraph graph, other;
  require_error([&] { graph.finalize(); }, plexus::error_category::invalid_argument,
                "nothing was recorded");
  graph.begin_recording(q);
  require_error([&] { other.begin_recording(q); }, plexus::error_category::invalid_argument,
                "already records into another graph");
  graph.end_recording(q);
  q.start_fusion();
  require_error([&] { graph.begin_recording(q); }, plexus::error_category::invalid_argument,
                "fusing");
  q.cancel_fusion();
  auto rt2 = make_runtime({"inorder", "whole"}, "\"host\"");
  Queue q2 = rt2->queue();
  graph.begin_recording(q);
  require_error([&] { graph.begin_recording(q2); }, plexus::error_category::invalid_argument,
                "another plexus::Runtime");
  graph.end_recording();
}

TEST_CASE("graphs that cannot run as one task, and devices without device graphs, fall back",
          "[graph]") {
  for (const std::string backends : {"\"host\"", "\"opencl\""}) {
    auto rt = make_runtime({"dag", "exact"}, backends);
    if (rt->devices().empty()) {
      WARN(backends << ": no device here: skipped");
      continue;
    }
    INFO(backends << " on " << rt->devices().front()->info().name);
    Queue q = rt->queue();
    const Step step{rt->build(source)};
    Buffer<float> px(iota_values(1).data(), n), py(iota_values(2).data(), n);
    Buffer<float> gx(iota_values(1).data(), n), gy(iota_values(2).data(), n);
    GraphParameter<float> a(0.75f);
    std::atomic<int> host_runs{0};
    auto host_step = [&](Buffer<float>& y) {
      q.submit([&](Handler& h) {
        auto acc = y.access(h, AccessMode::read_write);
        h.host_task([acc, &host_runs] {
          for (std::size_t i = 0; i < n; ++i) acc[i] = acc[i] - 1.0f;
          ++host_runs;
        });
      });
    };
    CommandGraph graph;
    graph.begin_recording(q);
    step.submit(q, gx, gy, a, 2.0f);
    host_step(gy);
    graph.end_recording();
    ExecutableGraph exec = graph.finalize();
    CHECK_FALSE(exec.single_task());
    CommandGraph kernels_only;
    kernels_only.begin_recording(q);
    step.submit(q, gx, gy, a, 2.0f);
    kernels_only.end_recording();
    ExecutableGraph one_task = kernels_only.finalize();
    CHECK(one_task.single_task());
    for (int round = 0; round < 3; ++round) {
      step.submit(q, px, py, a, 2.0f);
      host_step(py);
      q.submit(exec);
      step.submit(q, px, py, a, 2.0f);
      q.submit(one_task);
    }
    CHECK(contents(gx) == contents(px));
    CHECK(contents(gy) == contents(py));
    CHECK(host_runs == 6);
  }
}

TEST_CASE("a graph submitted from several threads stays correct", "[graph]") {
  for (const char* scheduler : {"inorder", "dag"}) {
    INFO(scheduler);
    auto rt = make_runtime({scheduler, "exact"}, "\"host\"");
    const plexus::Kernel axpb = rt->build(source).kernel("axpb");
    Buffer<float> shared(std::vector<float>(n, 0.0f).data(), n);
    Queue recorder = rt->queue();
    CommandGraph graph;
    graph.begin_recording(recorder);
    for (int k = 0; k < 4; ++k) {
      recorder.submit([&](Handler& h) {
        h.parallel_for(axpb, Range{n}, shared.access(h, AccessMode::read_write), 1.0f, 1.0f);
      });
    }
    graph.end_recording();
    const ExecutableGraph exec = graph.finalize();
    constexpr int threads = 4, rounds = 25;
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        Queue q = t % 2 ? rt->queue() : recorder;  // some share the queue, some have their own
        for (int r = 0; r < rounds; ++r) q.submit(exec);
        q.wait();
      });
    }
    for (auto& worker : workers) worker.join();
    CHECK(contents(shared) == std::vector<float>(n, float(threads * rounds * 4)));
  }
}

TEST_CASE("a graph on a CUDA device replays as a CUDA graph with the results of plain "
          "submission", "[graph][cuda]") {
  auto rt = make_runtime({"dag", "paged"}, "\"cuda\"");
  if (rt->devices().empty()) {
    WARN("no CUDA device here (see `plexus info`: the cuda backend says why): skipped");
    return;
  }
  Queue q = rt->queue();
  const Step step{rt->build(source)};
  Buffer<float> px(iota_values(1).data(), n), py(iota_values(2).data(), n);
  Buffer<float> gx(iota_values(1).data(), n), gy(iota_values(2).data(), n);
  GraphParameter<float> a(1.25f);
  CommandGraph graph;
  graph.begin_recording(q);
  step.submit(q, gx, gy, a, 0.5f);
  graph.end_recording();
  ExecutableGraph exec = graph.finalize();
  REQUIRE(exec.single_task());
  for (int round = 0; round < 6; ++round) {
    a.update(1.0f + 0.25f * float(round % 3));  // changed kernel-node parameters
    step.submit(q, px, py, a, 0.5f);
    q.submit(exec);
  }
  CHECK(contents(gx) == contents(px));
  CHECK(contents(gy) == contents(py));
  Buffer<float> other(iota_values(5).data(), n), other_plain(iota_values(5).data(), n);
  exec.rebind(gx, other);  // a changed allocation
  q.submit(exec);
  step.submit(q, other_plain, py, a, 0.5f);
  CHECK(contents(other) == contents(other_plain));
  CHECK(contents(gy) == contents(py));
}
