// The CUDA queue's launch thread (backends/cuda/cuda_launcher.hpp), through the DeviceQueue
// interface on every CUDA device: launches handed to it run in launch order with the
// argument values they had at launch() (copied before it returns), each on_complete comes
// after its own launches, a launch the driver refuses there fails the on_complete after it
// (and wait() when no on_complete follows) while its neighbours run, a module unloaded at
// once after its launches does not pull them from under the thread, and a lone launch
// (thread asleep) is still refused at once. PLEXUS_CUDA_LAUNCH_THREAD, read for each queue,
// picks the mode: "always" (every launch through the thread), default (chains only), "0".
// Without a CUDA device every case is skipped with the reason (WARN).
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::CopyLayout;
using plexus::Device;
using plexus::KernelArgument;
using plexus::NdRange;
using plexus::test::Allocation;
using plexus::test::load_program;

namespace {

const char* const source = R"(
  __kernel void step(__global uint* x, uint k, uchar small, ulong big) {
    const size_t i = get_global_id(0);
    x[i] = x[i] * 3u + k + small + (uint)(big >> 32);
  }
  __kernel void scratch(__global uint* x, __local uint* tile) {
    tile[get_local_id(0)] = 1u;
    x[get_global_id(0)] += tile[get_local_id(0)];
  }
)";

constexpr std::size_t n = 256;

NdRange range_of(std::size_t global, std::size_t local = 0) {
  NdRange range;
  range.global = {global, 1, 1};
  if (local) range.local = {local, 1, 1};
  return range;
}

// Sets PLEXUS_CUDA_LAUNCH_THREAD for the queues created in its scope.
class LaunchThreadMode {
 public:
  explicit LaunchThreadMode(const char* mode) { ::setenv("PLEXUS_CUDA_LAUNCH_THREAD", mode, 1); }
  ~LaunchThreadMode() { ::unsetenv("PLEXUS_CUDA_LAUNCH_THREAD"); }
};

// Runs `test` on every CUDA device; WARN and skip where there is none.
void for_each_cuda_device(const std::function<void(Device&)>& test) {
  bool any = false;
  for (const auto& each : plexus::test::devices_under_test()) {
    if (each.label.rfind("cuda", 0) != 0) continue;
    if (!each.skip_reason.empty()) {
      WARN(each.label << ": skipped: " << each.skip_reason);
      continue;
    }
    any = true;
    INFO("on " << each.label);
    test(*each.device);
  }
  if (!any) WARN("skipped: no CUDA device here");
  SUCCEED();
}

// What each case starts from: the kernels loaded on the device, n zeroed uints there, and a
// queue (made in the case's mode).
struct Setup {
  explicit Setup(Device& device)
      : module(load_program(device, source)), memory(device, n * 4), queue(device.create_queue()) {
    REQUIRE(module);
    const std::vector<std::uint32_t> zeros(n, 0);
    queue->copy_to_device(memory.get(), zeros.data(), CopyLayout::contiguous(0, n * 4));
  }
  std::shared_ptr<plexus::DeviceModule> module;
  Allocation memory;
  std::unique_ptr<plexus::DeviceQueue> queue;
};

std::vector<std::uint32_t> read_back(plexus::DeviceQueue& queue, const Allocation& memory) {
  std::vector<std::uint32_t> values(n);
  queue.copy_to_host(values.data(), memory.get(), CopyLayout::contiguous(0, n * 4));
  queue.wait();
  return values;
}

// on_complete's failure, waited for.
std::exception_ptr completion_of(plexus::DeviceQueue& queue) {
  auto done = std::make_shared<std::promise<std::exception_ptr>>();
  auto future = done->get_future();
  queue.on_complete([done](std::exception_ptr failure) { done->set_value(failure); });
  REQUIRE(future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  return future.get();
}

void check_refused(const std::exception_ptr& failure) {
  REQUIRE(failure);
  try {
    std::rethrow_exception(failure);
  } catch (const plexus::error& e) {
    INFO(e.what());
    CHECK(e.category() == plexus::error_category::invalid_argument);
    CHECK_THAT(e.what(), Catch::Contains("launch of 'scratch'") &&
                             Catch::Contains("cuLaunchKernel"));
  }
}

}  // namespace

TEST_CASE("launches through the launch thread run in order with the values given at launch()",
          "[cuda][launch-thread]") {
  for (const char* mode : {"always", "chains", "0"}) {
    INFO("PLEXUS_CUDA_LAUNCH_THREAD=" << mode);
    LaunchThreadMode set(mode);
    for_each_cuda_device([](Device& device) {
      Setup setup(device);
      auto& [module, memory, queue] = setup;
      std::uint32_t expected = 0;
      std::vector<int> completed;  // launch counts seen by the callbacks, in call order
      std::mutex completed_mutex;
      constexpr int launches = 3000;
      for (int i = 0; i < launches; ++i) {
        // Fresh values per launch, overwritten once launch() returns: the queue must have
        // copied them.
        std::uint32_t k = static_cast<std::uint32_t>(i) * 7u + 1u;
        std::uint8_t small = static_cast<std::uint8_t>(i & 0xff);
        std::uint64_t big = std::uint64_t(i % 5) << 32;
        const KernelArgument args[] = {KernelArgument::of_allocation(memory.get()),
                                       KernelArgument::of_scalar(&k, 4),
                                       KernelArgument::of_scalar(&small, 1),
                                       KernelArgument::of_scalar(&big, 8)};
        queue->launch(module->kernel("step"), range_of(n), args);
        expected = expected * 3u + k + small + static_cast<std::uint32_t>(big >> 32);
        k = small = 0;
        big = 0;
        if (i % 100 == 99) {
          queue->on_complete([&, count = i + 1](std::exception_ptr failure) {
            CHECK_FALSE(failure);
            std::lock_guard lock(completed_mutex);
            completed.push_back(count);
          });
        }
      }
      const auto values = read_back(*queue, memory);
      CHECK(values == std::vector<std::uint32_t>(n, expected));
      // wait() waits for the stream, not for callbacks: a last one, run after all of them.
      CHECK(completion_of(*queue) == nullptr);
      std::lock_guard lock(completed_mutex);
      REQUIRE(completed.size() == launches / 100);
      for (std::size_t c = 0; c < completed.size(); ++c) CHECK(completed[c] == int(c + 1) * 100);
    });
  }
}

TEST_CASE("a module unloaded right after its launches were handed off: they still run",
          "[cuda][launch-thread]") {
  LaunchThreadMode set("always");
  for_each_cuda_device([](Device& device) {
    Setup setup(device);
    auto& [module, memory, queue] = setup;
    constexpr int launches = 500;
    const KernelArgument args[] = {KernelArgument::of_allocation(memory.get()),
                                   KernelArgument::of_local(64 * 4)};
    for (int i = 0; i < launches; ++i)
      queue->launch(module->kernel("scratch"), range_of(n, 64), args);
    module.reset();  // unloads once the launches handed off are issued
    CHECK(read_back(*queue, memory) == std::vector<std::uint32_t>(n, launches));
  });
}

TEST_CASE("a launch the driver refuses on the launch thread fails the on_complete after it",
          "[cuda][launch-thread]") {
  LaunchThreadMode set("always");
  for_each_cuda_device([](Device& device) {
    Setup setup(device);
    auto& [module, memory, queue] = setup;
    const KernelArgument fits[] = {KernelArgument::of_allocation(memory.get()),
                                   KernelArgument::of_local(64 * 4)};
    // Far more shared memory than any GPU has: only the driver says no, at cuLaunchKernel.
    const KernelArgument too_much[] = {KernelArgument::of_allocation(memory.get()),
                                       KernelArgument::of_local(std::size_t(1) << 30)};
    const auto& scratch = module->kernel("scratch");

    queue->launch(scratch, range_of(n, 64), fits);
    CHECK(completion_of(*queue) == nullptr);
    queue->launch(scratch, range_of(n, 64), too_much);  // accepted here, refused there
    check_refused(completion_of(*queue));
    queue->launch(scratch, range_of(n, 64), fits);
    CHECK(completion_of(*queue) == nullptr);  // reported once, the queue goes on
    CHECK(read_back(*queue, memory) == std::vector<std::uint32_t>(n, 2));

    // No on_complete after it: wait() reports it, once.
    queue->launch(scratch, range_of(n, 64), too_much);
    std::exception_ptr waited;
    try {
      queue->wait();
    } catch (...) {
      waited = std::current_exception();
    }
    check_refused(waited);
    queue->launch(scratch, range_of(n, 64), fits);
    CHECK_NOTHROW(queue->wait());
    CHECK(read_back(*queue, memory) == std::vector<std::uint32_t>(n, 3));
  });
}

TEST_CASE("a lone launch the driver refuses is refused at launch()", "[cuda][launch-thread]") {
  for_each_cuda_device([](Device& device) {
    Setup setup(device);  // default mode: the queue's thread has not started
    auto& [module, memory, queue] = setup;
    const KernelArgument too_much[] = {KernelArgument::of_allocation(memory.get()),
                                       KernelArgument::of_local(std::size_t(1) << 30)};
    std::exception_ptr refused;
    try {
      queue->launch(module->kernel("scratch"), range_of(n, 64), too_much);
    } catch (...) {
      refused = std::current_exception();
    }
    check_refused(refused);
    CHECK_NOTHROW(queue->wait());
  });
}
