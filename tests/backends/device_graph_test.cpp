// Device conformance, device graphs (plexus/device_graph.hpp): on every device whose queue
// records one (host: HostGraph; CUDA: a CUDA graph; PoCL: a cl_khr_command_buffer), a replay
// gives the results of the same launches one by one, takes new scalar and allocation values on each replay, and refuses a
// launch list that is not the recorded one. A queue without the capability returns nullptr
// (the caller falls back to launches) and its launch_graph is unsupported: reported, not
// failed.
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "../graph/graph_test_kernels.hpp"
#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::CopyLayout;
using plexus::Device;
using plexus::GraphLaunch;
using plexus::KernelArgument;
using plexus::test::Allocation;
using plexus::test::download;
using plexus::test::for_each_device;
using plexus::test::load_program;
using plexus::test::range_1d;

namespace {

constexpr std::size_t n = 512;

// The graph's launches over x and y with scalar `a`: x = x*a + 1; y += x; x = x*0.5 + a.
struct Launches {
  float a = 2.0f, one = 1.0f, half = 0.5f;
  std::array<KernelArgument, 3> first, third;
  std::array<KernelArgument, 2> second;
  std::array<GraphLaunch, 3> list;

  Launches(const plexus::DeviceModule& module, void* x, void* y, float scalar) : a(scalar) {
    first = {KernelArgument::of_allocation(x), KernelArgument::of_scalar(&a, 4),
             KernelArgument::of_scalar(&one, 4)};
    second = {KernelArgument::of_allocation(x), KernelArgument::of_allocation(y)};
    third = {KernelArgument::of_allocation(x), KernelArgument::of_scalar(&half, 4),
             KernelArgument::of_scalar(&a, 4)};
    list = {GraphLaunch{&module.kernel("axpb"), range_1d(n), first},
            GraphLaunch{&module.kernel("accumulate"), range_1d(n), second},
            GraphLaunch{&module.kernel("axpb"), range_1d(n), third}};
  }
  Launches(const Launches&) = delete;
};

void expect(std::vector<float>& x, std::vector<float>& y, float a) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = x[i] * a + 1.0f;
    y[i] += x[i];
    x[i] = x[i] * 0.5f + a;
  }
}

}  // namespace

TEST_CASE("a device graph replays its launches with new arguments each time",
          "[devices][graph]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, plexus::test::graph_test_source);
    if (!module) return;
    const auto queue = device.create_queue();
    Allocation x(device, n * 4), y(device, n * 4), z(device, n * 4);
    std::vector<float> hx(n), hy(n), hz(n);
    for (std::size_t i = 0; i < n; ++i) hx[i] = float(i % 13), hy[i] = 1.0f, hz[i] = float(i % 5);
    for (auto [memory, host] : {std::pair{&x, &hx}, std::pair{&y, &hy}, std::pair{&z, &hz}})
      queue->copy_to_device(memory->get(), host->data(), CopyLayout::contiguous(0, n * 4));

    const Launches recorded(*module, x.get(), y.get(), 2.0f);
    auto graph = queue->record_graph(recorded.list);
    if (!graph) {
      WARN(device.info().name << ": its queue records no device graphs (the runtime launches "
                                 "the kernels one by one instead)");
      return;
    }
    // Recording enqueues nothing.
    CHECK(download<float>(*queue, x, n) == hx);
    for (float a : {2.0f, 2.0f, 0.25f, -1.5f}) {  // the same, then changed scalars
      const Launches replay(*module, x.get(), y.get(), a);
      queue->launch_graph(*graph, replay.list);
      expect(hx, hy, a);
    }
    CHECK(download<float>(*queue, x, n) == hx);
    CHECK(download<float>(*queue, y, n) == hy);
    // Another allocation (a rebound buffer).
    const Launches rebound(*module, z.get(), y.get(), 3.0f);
    queue->launch_graph(*graph, rebound.list);
    expect(hz, hy, 3.0f);
    CHECK(download<float>(*queue, z, n) == hz);
    CHECK(download<float>(*queue, y, n) == hy);
    CHECK(download<float>(*queue, x, n) == hx);
    // A list that is not the recorded one.
    Launches swapped(*module, x.get(), y.get(), 1.0f);
    std::swap(swapped.list[0], swapped.list[1]);
    CHECK_THROWS_AS(queue->launch_graph(*graph, swapped.list), plexus::error);
    queue->wait();
  });
}
