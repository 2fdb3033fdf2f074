// Device conformance, queues: on_complete is called exactly once (with no failure) after the
// work enqueued before it, and two queues of one device run one shared kernel from two
// threads at once with correct results.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::CopyLayout;
using plexus::Device;
using plexus::KernelArgument;
using plexus::NdRange;
using plexus::test::Allocation;
using plexus::test::for_each_device;
using plexus::test::load_program;

namespace {

const char* const add_source = R"(
  __kernel void add(__global int* x, int amount) { x[get_global_id(0)] += amount; }
)";

NdRange range_of(std::size_t n) {
  NdRange range;
  range.global = {n, 1, 1};
  return range;
}

}  // namespace

TEST_CASE("on_complete is called exactly once, after the work before it", "[devices][queue]") {
  for_each_device([](Device& device) {
    const std::size_t n = 1 << 16;
    std::vector<int> values(n, 5), result(n, 0);
    Allocation memory(device, n * sizeof(int));
    const auto queue = device.create_queue();

    {  // an empty queue completes too
      std::atomic<int> calls{0};
      std::promise<std::exception_ptr> done;
      queue->on_complete([&](std::exception_ptr failure) {
        if (calls.fetch_add(1) == 0) done.set_value(failure);
      });
      auto future = done.get_future();
      REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
      CHECK(future.get() == nullptr);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      CHECK(calls == 1);
    }

    queue->copy_to_device(memory.get(), values.data(), CopyLayout::contiguous(0, n * 4));
    if (const auto module = load_program(device, add_source)) {
      const int amount = 3;
      const KernelArgument args[] = {KernelArgument::of_allocation(memory.get()),
                                     KernelArgument::of_scalar(&amount, 4)};
      queue->launch(module->kernel("add"), range_of(n), args);
      values.assign(n, 8);
    }
    queue->copy_to_host(result.data(), memory.get(), CopyLayout::contiguous(0, n * 4));
    std::atomic<int> calls{0};
    std::promise<std::exception_ptr> done;
    queue->on_complete([&](std::exception_ptr failure) {
      if (calls.fetch_add(1) == 0) done.set_value(failure);
    });
    auto future = done.get_future();
    REQUIRE(future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
    CHECK(future.get() == nullptr);
    CHECK(result == values);  // the work enqueued before on_complete had finished
    queue->wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(calls == 1);
  });
}

TEST_CASE("two queues of one device used from two threads at once", "[devices][queue]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, add_source);
    if (!module) return;
    const plexus::DeviceKernel& add = module->kernel("add");
    const std::size_t n = 4096;
    const int rounds = 40;
    std::vector<std::vector<int>> results(2);
    std::vector<std::string> failures(2);
    auto work = [&](int id) {
      try {
        Allocation memory(device, n * sizeof(int));
        const auto queue = device.create_queue();
        std::vector<int> values(n, id * 1000);
        queue->copy_to_device(memory.get(), values.data(), CopyLayout::contiguous(0, n * 4));
        const int amount = id + 1;
        const KernelArgument args[] = {KernelArgument::of_allocation(memory.get()),
                                       KernelArgument::of_scalar(&amount, 4)};
        for (int round = 0; round < rounds; ++round) queue->launch(add, range_of(n), args);
        results[id].resize(n);
        queue->copy_to_host(results[id].data(), memory.get(), CopyLayout::contiguous(0, n * 4));
        queue->wait();
      } catch (const std::exception& e) {
        failures[id] = e.what();
      }
    };
    std::thread first(work, 0), second(work, 1);
    first.join();
    second.join();
    for (int id = 0; id < 2; ++id) {
      INFO("thread " << id << ": " << failures[id]);
      REQUIRE(failures[id].empty());
      CHECK(results[id] == std::vector<int>(n, id * 1000 + rounds * (id + 1)));
    }
  });
}
