// Copies in command graphs (graph.hpp, issue 16): buffer copy and fill commands and USM
// memcpy, memset, fill and copy recorded with kernels replay with the results, events and
// errors of plain submission (host device; PoCL, whose USM device memory is the device's
// own, where it is installed); a rebound buffer is the one a recorded copy uses.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "../runtime/runtime_test_support.hpp"
#include "graph_test_kernels.hpp"
#include "plexus/graph.hpp"
#include "plexus/usm.hpp"

using plexus::AccessMode;
using plexus::Buffer;
using plexus::CommandGraph;
using plexus::ExecutableGraph;
using plexus::GraphParameter;
using plexus::Handler;
using plexus::Queue;
using plexus::Range;
using plexus::test::contents;
using plexus::test::make_runtime;
using plexus::test::require_error;

namespace {

constexpr std::size_t length = 128;

// One step's buffers and USM memory; `in` is read by a memcpy each time the step runs.
struct Data {
  Buffer<float> x{std::vector<float>(length, 1.0f).data(), length};
  Buffer<float> y{length}, z{length};
  std::vector<float> in = std::vector<float>(length, 0.0f), out = std::vector<float>(length, -1.0f);
  std::vector<float> usm_out = std::vector<float>(length, -1.0f);
  float* device = nullptr;
  float* second = nullptr;
  Queue* q = nullptr;

  explicit Data(Queue& queue) : q(&queue) {
    device = plexus::malloc_device<float>(length, queue);
    second = plexus::malloc_device<float>(length, queue);
  }
  ~Data() {
    plexus::free(device, *q);
    plexus::free(second, *q);
  }
  Data(const Data&) = delete;
  Data& operator=(const Data&) = delete;
};

// x = x * a + 1; y = x (buffer copy); z = 7 (fill); out = y (copy to the host);
// device = in (memcpy); second = 0 (memset), then its first half 2.5 (fill); second's
// second half = device's (copy); usm_out = second (memcpy).
void step(Queue& q, const plexus::Kernel& axpb, Data& d, const GraphParameter<float>& a) {
  q.submit([&](Handler& h) {
    h.parallel_for(axpb, Range{length}, d.x.access(h, AccessMode::read_write), a, 1.0f);
  });
  q.submit([&](Handler& h) {
    h.copy(d.x.access(h, AccessMode::read), d.y.access(h, AccessMode::discard_write));
  });
  q.submit([&](Handler& h) { h.fill(d.z.access(h, AccessMode::discard_write), 7.0f); });
  q.submit([&](Handler& h) { h.copy(d.y.access(h, AccessMode::read), d.out.data()); });
  q.memcpy(d.device, d.in.data(), length * sizeof(float));
  q.memset(d.second, 0, length * sizeof(float));
  q.fill(d.second, 2.5f, length / 2);
  q.copy(d.device + length / 2, d.second + length / 2, length / 2);
  q.memcpy(d.usm_out.data(), d.second, length * sizeof(float));
}

}  // namespace

TEST_CASE("copies and fills recorded in a graph give the results and events of plain "
          "submission", "[graph][copies]") {
  for (const std::string backends : {"\"host\"", "\"opencl\""}) {
    for (const auto& choice : plexus::test::runtime_matrix()) {
      if (choice.scheduler != "inorder" && choice.memory != "exact") continue;  // a few
      INFO(backends << " " << choice.label());
      auto rt = make_runtime(choice, backends);
      if (rt->devices().empty()) {
        WARN("no " << backends << " device (PoCL missing): skipped");
        continue;
      }
      Queue q = rt->queue();
      if (!plexus::test::has_usm_device_memory(q.device(), *rt)) continue;
      const plexus::Kernel axpb = rt->build(plexus::test::graph_test_source).kernel("axpb");
      Data plain(q), replayed(q);
      GraphParameter<float> a(2.0f);

      CommandGraph graph;
      graph.begin_recording(q);
      step(q, axpb, replayed, a);
      graph.end_recording();
      REQUIRE(graph.size() == 9);
      q.wait();
      CHECK(replayed.out == std::vector<float>(length, -1.0f));  // recorded, not run
      CHECK(replayed.usm_out == std::vector<float>(length, -1.0f));
      ExecutableGraph exec = graph.finalize();
      CHECK_FALSE(exec.single_task());  // copies: node by node

      for (int round = 0; round < 3; ++round) {
        a.update(1.5f + float(round));
        for (std::size_t i = 0; i < length; ++i) plain.in[i] = replayed.in[i] = float(i + round);
        step(q, axpb, plain, a);
        q.wait();
        plexus::Event done = q.submit(exec);
        REQUIRE(done.valid());
        done.wait();
        CHECK(done.status() == plexus::TaskStatus::complete);
        CHECK(replayed.out == plain.out);  // the replay read `in` and `x` as they are now
        CHECK(replayed.usm_out == plain.usm_out);
        CHECK(contents(replayed.z) == std::vector<float>(length, 7.0f));
      }
      CHECK(contents(replayed.x) == contents(plain.x));
      CHECK(contents(replayed.y) == contents(plain.y));
      CHECK(plain.usm_out[0] == 2.5f);
      CHECK(plain.usm_out[length - 1] == float(length - 1 + 2));  // copied from `in` of round 2
    }
  }
}

TEST_CASE("a rebound buffer is the one a recorded copy or fill uses", "[graph][copies]") {
  auto rt = make_runtime({"dag", "exact"}, "\"host\"");
  Queue q = rt->queue();
  Buffer<float> x(std::vector<float>(length, 3.0f).data(), length);
  Buffer<float> other(std::vector<float>(length, 5.0f).data(), length);
  Buffer<float> y(length), target(std::vector<float>(length, 0.0f).data(), length);
  Buffer<float> filled(length), refilled(length);
  std::vector<float> out(length, 0.0f);
  CommandGraph graph;
  graph.begin_recording(q);
  q.submit([&](Handler& h) { h.copy(x.access(h, AccessMode::read), y.access(h, AccessMode::discard_write)); });
  q.submit([&](Handler& h) { h.fill(filled.access(h, AccessMode::discard_write), 9.0f); });
  q.submit([&](Handler& h) { h.copy(y.access(h, AccessMode::read), out.data()); });
  graph.end_recording();
  ExecutableGraph exec = graph.finalize();
  q.submit(exec).wait();
  CHECK(out == std::vector<float>(length, 3.0f));
  CHECK(contents(filled) == std::vector<float>(length, 9.0f));

  exec.rebind(x, other);     // the copy's source
  exec.rebind(y, target);    // its destination, and the later copy's source
  exec.rebind(filled, refilled);
  q.submit(exec).wait();
  CHECK(out == std::vector<float>(length, 5.0f));
  CHECK(contents(target) == std::vector<float>(length, 5.0f));
  CHECK(contents(y) == std::vector<float>(length, 3.0f));  // no longer written
  CHECK(contents(refilled) == std::vector<float>(length, 9.0f));
}

TEST_CASE("a copy's mistakes while recording are the errors of plain submission",
          "[graph][copies]") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  Queue q = rt->queue();
  Buffer<float> x(length), small(length / 2);
  float* device = plexus::malloc_device<float>(length, q);
  std::vector<float> host(length);
  auto bad_copy = [&] {
    q.submit([&](Handler& h) {
      h.copy(x.access(h, AccessMode::read), small.access(h, AccessMode::discard_write));
    });
  };
  auto bad_memcpy = [&] { q.memcpy(device + 1, host.data(), length * sizeof(float)); };
  std::string copy_message, memcpy_message;
  try { bad_copy(); } catch (const plexus::error& e) { copy_message = e.what(); }
  try { bad_memcpy(); } catch (const plexus::error& e) { memcpy_message = e.what(); }
  REQUIRE(copy_message.find("elements") != std::string::npos);
  REQUIRE(memcpy_message.find("past its end") != std::string::npos);

  CommandGraph graph;
  graph.begin_recording(q);
  require_error(bad_copy, plexus::error_category::invalid_argument, copy_message);
  require_error(bad_memcpy, plexus::error_category::invalid_argument, memcpy_message);
  graph.end_recording();
  CHECK(graph.size() == 0);  // nothing recorded

  // A graph whose copy reads a buffer destroyed since is invalid, as one of kernels.
  auto gone = std::make_unique<Buffer<float>>(length);
  graph.begin_recording(q);
  q.submit([&](Handler& h) { h.copy(gone->access(h, AccessMode::read_write), host.data()); });
  graph.end_recording();
  ExecutableGraph exec = graph.finalize();
  gone.reset();
  require_error([&] { q.submit(exec); }, plexus::error_category::invalid_argument,
                "node 1 (copy) uses a buffer that has been destroyed");
  plexus::free(device, q);
}
