// Device conformance, timing (DeviceQueue::enable_timing / take_timing): with timing on, a
// copy and two launches each get device times, aligned to the host steady clock, that lie
// within the host interval [before the enqueue, after wait()] give or take `tolerance`
// (the alignment error: half the calibration bracket, a few microseconds; see the
// backends' READMEs), with start <= end, in enqueue order; a span covers what was
// enqueued since the previous take; a queue without timing hands out none. Devices whose
// queue cannot time are reported (WARN) and skipped.
#include <catch2/catch.hpp>

#include <chrono>
#include <vector>

#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::CopyLayout;
using plexus::Device;
using plexus::DeviceTimes;
using plexus::KernelArgument;
using plexus::NdRange;
using plexus::test::Allocation;
using plexus::test::for_each_device;
using plexus::test::load_program;
using clock_type = std::chrono::steady_clock;

namespace {

// Allowed alignment error between device and host times.
constexpr auto tolerance = std::chrono::microseconds(50);

const char* const timing_source = R"(
  __kernel void spin(__global int* x, int rounds) {
    int v = x[get_global_id(0)];
    for (int i = 0; i < rounds; ++i) v = v * 1103515245 + 12345;
    x[get_global_id(0)] = v;
  }
)";

double us(clock_type::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

DeviceTimes times_of(const std::shared_ptr<const plexus::OperationTiming>& timing) {
  REQUIRE(timing);
  const auto times = timing->times();
  REQUIRE(times);
  CHECK(times->start <= times->end);
  return *times;
}

}  // namespace

TEST_CASE("queues with timing on time their operations on the host clock", "[devices][timing]") {
  for_each_device([](Device& device) {
    {
      const auto untimed = device.create_queue();
      CHECK(untimed->take_timing() == nullptr);  // timing is opt-in
    }
    const auto queue = device.create_queue();
    if (!queue->enable_timing()) {
      WARN(device.info().name << ": skipped: its queues cannot time operations");
      return;
    }
    CHECK(queue->enable_timing());           // idempotent
    CHECK(queue->take_timing() == nullptr);  // nothing enqueued yet
    const auto module = load_program(device, timing_source);
    if (!module) return;
    const std::size_t n = 1 << 14;
    std::vector<int> values(n, 1), result(n, 0);
    Allocation memory(device, n * sizeof(int));
    const int rounds = 2000;
    const KernelArgument args[] = {KernelArgument::of_allocation(memory.get()),
                                   KernelArgument::of_scalar(&rounds, sizeof rounds)};
    NdRange range;
    range.global = {n, 1, 1};

    const auto before = clock_type::now();
    queue->copy_to_device(memory.get(), values.data(), CopyLayout::contiguous(0, n * sizeof(int)));
    const auto copy = queue->take_timing();
    queue->launch(module->kernel("spin"), range, args);
    const auto first = queue->take_timing();
    queue->launch(module->kernel("spin"), range, args);
    queue->copy_to_host(result.data(), memory.get(), CopyLayout::contiguous(0, n * sizeof(int)));
    const auto rest = queue->take_timing();  // the second launch and the copy back
    queue->wait();
    const auto after = clock_type::now();
    CHECK(queue->take_timing() == nullptr);

    const DeviceTimes c = times_of(copy), k1 = times_of(first), k2 = times_of(rest);
    // In the host interval, give or take the alignment error.
    CHECK(c.start >= before - tolerance);
    CHECK(k2.end <= after + tolerance);
    // In enqueue order on the in-order queue (one alignment for all: exact up to rounding).
    const auto rounding = std::chrono::microseconds(1);
    CHECK(c.end <= k1.start + rounding);
    CHECK(k1.end <= k2.start + rounding);
    CHECK(k1.end > k1.start);  // the kernel takes time
    WARN(device.info().name << ": device times in us from before the enqueue: copy "
                            << us(c.start - before) << ".." << us(c.end - before) << ", launch "
                            << us(k1.start - before) << ".." << us(k1.end - before)
                            << ", launch + copy back " << us(k2.start - before) << ".."
                            << us(k2.end - before) << "; after wait(): " << us(after - before));
  });
}
