// Device conformance, queues: on_complete is called exactly once (with no failure) after the
// work enqueued before it, a queue's destructor returns only once its on_complete callbacks
// have (and released what they hold), two queues of one device run one shared kernel
// from two threads at once with correct results, and one queue orders its work behind
// another's marker on the device.
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
    // `values` stays untouched until the queue has completed: a copy reads its host memory
    // when it runs, not when it is enqueued (a remote device's transfer reads it as the data
    // leaves, well after copy_to_device returned).
    const std::vector<int> values(n, 5);
    std::vector<int> expected = values, result(n, 0);
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
      expected.assign(n, 8);
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
    CHECK(result == expected);  // the work enqueued before on_complete had finished
    queue->wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(calls == 1);
  });
}

// A scheduler calls on_complete after each task's launch. Back to back, while earlier ones
// are still in flight (the OpenCL backend reports those together, one marker in flight per
// queue), every callback must still be called exactly once, without a failure, and without
// the caller waiting on the queue: the last ones included.
TEST_CASE("back-to-back on_complete calls are each called once without a wait",
          "[devices][queue]") {
  for_each_device([](Device& device) {
    const std::size_t n = 64, calls = 300;
    std::vector<int> zeros(n, 0), result(n, -1);
    Allocation memory(device, n * sizeof(int));
    const auto queue = device.create_queue();
    queue->copy_to_device(memory.get(), zeros.data(), CopyLayout::contiguous(0, n * 4));
    const auto module = load_program(device, add_source);
    const int amount = 1;
    const KernelArgument args[] = {KernelArgument::of_allocation(memory.get()),
                                   KernelArgument::of_scalar(&amount, 4)};
    std::vector<std::atomic<int>> called(calls);
    std::atomic<int> failed{0}, total{0};
    std::promise<void> all_called;
    for (std::size_t i = 0; i < calls; ++i) {
      if (module) queue->launch(module->kernel("add"), range_of(n), args);
      queue->on_complete([&, i](std::exception_ptr failure) {
        called[i].fetch_add(1);
        if (failure) failed.fetch_add(1);
        if (total.fetch_add(1) + 1 == static_cast<int>(calls)) all_called.set_value();
      });
    }
    REQUIRE(all_called.get_future().wait_for(std::chrono::seconds(60)) ==
            std::future_status::ready);
    CHECK(failed == 0);
    queue->copy_to_host(result.data(), memory.get(), CopyLayout::contiguous(0, n * 4));
    queue->wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (std::size_t i = 0; i < calls; ++i) CHECK(called[i] == 1);
    if (module) CHECK(result == std::vector<int>(n, static_cast<int>(calls)));
  });
}

// The OpenCL backend once returned from its destructor (clFinish: the marker is complete)
// while PoCL still ran the marker's callback, releasing what `done` held: the runtime then
// went, and its plugins, under the callback (a SIGSEGV in runtime_api_two_devices). Here
// what `done` holds blocks in its destructor, once `done` has returned, while the queue's
// destructor runs on another thread; it is released once that destructor has returned or
// 50 ms have passed (a queue that waits never returns before: the bound only gives one that
// does not the time to show it), and records whether the destructor had returned: 1 if it
// had, 0 if not. A callback run at once (on this thread, in on_complete) does not block.
// PoCL's clFinish often waits for its callback thread anyway: a queue that does not wait
// fails about one round in ten here, one that waits never.
static int destroyed_before_callback_ended(Device& device) {
  struct Probe {  // held by the callback only: destroyed with it
    std::thread::id test_thread;
    std::shared_future<void> released;
    const std::atomic<bool>* destroyed;
    std::atomic<int>* seen;
    ~Probe() {
      if (std::this_thread::get_id() != test_thread) released.wait();
      seen->store(destroyed->load() ? 1 : 0);
    }
  };
  // Work before on_complete: on an idle queue the driver may call back at once, here.
  const std::size_t n = 1 << 20;
  const std::vector<int> values(n, 7);
  Allocation memory(device, n * sizeof(int));
  auto queue = device.create_queue();
  queue->copy_to_device(memory.get(), values.data(), CopyLayout::contiguous(0, n * 4));
  std::atomic<bool> destroyed{false};
  std::atomic<int> seen{-1};
  std::promise<void> called, release;
  auto probe = std::make_shared<Probe>(
      Probe{std::this_thread::get_id(), release.get_future().share(), &destroyed, &seen});
  queue->on_complete(
      [probe = std::move(probe), &called](std::exception_ptr) { called.set_value(); });
  REQUIRE(called.get_future().wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  std::promise<void> returned;
  std::thread destroyer([&] {
    queue.reset();
    destroyed = true;
    returned.set_value();
  });
  returned.get_future().wait_for(std::chrono::milliseconds(50));
  release.set_value();
  destroyer.join();
  return seen;
}

TEST_CASE("a queue's destructor returns after its on_complete callbacks", "[devices][queue]") {
  for_each_device([](Device& device) {
    for (int round = 0; round < 5; ++round) {  // PoCL's callback thread sometimes holds clFinish
      INFO("round " << round);
      CHECK(destroyed_before_callback_ended(device) == 0);
    }
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

// Markers (DeviceQueue::mark / wait_for): a queue ordered behind another's marker runs its
// later work after the work before the marker, on the device, with no host wait in between:
// queue 2 adds 4 to what queue 1 copied in and added 3 to, and reads the sum back. A queue
// that cannot order by markers says so (orders_by_markers false, mark() nullptr: the host
// backend, whose operations are done when they return); a marker of another kind, or of
// another device, is refused with false.
TEST_CASE("a queue ordered behind another queue's marker runs after its work",
          "[devices][queue][markers]") {
  struct ForeignMarker final : plexus::QueueMarker {};
  for_each_device([](Device& device) {
    const auto first = device.create_queue();
    const auto second = device.create_queue();
    CHECK_FALSE(second->wait_for(ForeignMarker{}));
    const auto marker_before = first->mark();
    if (!first->orders_by_markers()) {
      CHECK(marker_before == nullptr);
      WARN(device.info().name << ": no markers (the caller waits on the host)");
      return;
    }
    REQUIRE(marker_before != nullptr);
    CHECK(second->wait_for(*marker_before));  // an empty queue's marker: reached at once
    const auto module = load_program(device, add_source);
    REQUIRE(module);
    const std::size_t n = 1 << 20;
    std::vector<int> values(n), result(n, 0), expected(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i % 1000);
    for (std::size_t i = 0; i < n; ++i) expected[i] = values[i] + 3 * 16 + 4;
    Allocation memory(device, n * sizeof(int));
    first->copy_to_device(memory.get(), values.data(), CopyLayout::contiguous(0, n * 4));
    const int three = 3, four = 4;
    const KernelArgument add_three[] = {KernelArgument::of_allocation(memory.get()),
                                        KernelArgument::of_scalar(&three, 4)};
    const KernelArgument add_four[] = {KernelArgument::of_allocation(memory.get()),
                                       KernelArgument::of_scalar(&four, 4)};
    for (int i = 0; i < 16; ++i) first->launch(module->kernel("add"), range_of(n), add_three);
    const auto marker = first->mark();
    REQUIRE(marker != nullptr);
    REQUIRE(second->wait_for(*marker));
    second->launch(module->kernel("add"), range_of(n), add_four);
    second->copy_to_host(result.data(), memory.get(), CopyLayout::contiguous(0, n * 4));
    second->wait();  // only the second queue: the first was never waited for
    CHECK(result == expected);
    first->wait();
    // Another device's marker (when there is a second device of this backend): refused.
    const auto& devices = plexus::test::devices_under_test();
    for (const auto& other : devices) {
      if (!other.device || other.device == &device || !other.skip_reason.empty()) continue;
      if (&other.device->backend() != &device.backend()) continue;
      const auto foreign = other.device->create_queue();
      if (const auto their = foreign->mark()) CHECK_FALSE(second->wait_for(*their));
      foreign->wait();
      break;
    }
  });
}
