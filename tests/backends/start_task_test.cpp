// start_task (task_execution.hpp) on every device's queue: a dependency still pending on the
// task's own queue is not waited for (the task is enqueued behind it and completes after
// it, failing with its failure), one that is not is waited for before anything is enqueued,
// and a body's work left in the queue completes the event once it has run.
#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/task_execution.hpp"

using plexus::CopyLayout;
using plexus::Device;
using plexus::DeviceQueue;
using plexus::Task;
using plexus::TaskEvent;
using plexus::test::Allocation;
using plexus::test::for_each_device;

namespace {

// A device body that copies one int from the host into an allocation of its queue's device.
class CopyBody final : public plexus::TaskBody {
 public:
  CopyBody(void* allocation, int value) : allocation_(allocation), value_(value) {}
  const std::string& name() const override { return name_; }
  bool runs_on_host() const override { return false; }
  Device* preferred_device() const override { return nullptr; }
  bool can_run_on(const Device&) const override { return true; }
  std::size_t transfer_bytes(Device*) const override { return sizeof value_; }
  std::vector<std::shared_ptr<TaskEvent>> place(Device*, const std::shared_ptr<TaskEvent>&) override {
    return {};
  }
  void run(DeviceQueue* queue) override {
    enqueue(queue);
    queue->wait();
  }
  bool enqueue(DeviceQueue* queue) override {
    queue->copy_to_device(allocation_, &value_, CopyLayout::contiguous(0, sizeof value_));
    return true;
  }

 private:
  std::string name_ = "copy body";
  void* allocation_;
  int value_;
};

// A dependency that has "started" and waits for the test to finish it.
std::shared_ptr<TaskEvent> running_dependency(DeviceQueue* pending_on) {
  auto event = std::make_shared<TaskEvent>("dependency");
  event->mark_running();
  event->set_pending_on(pending_on);
  return event;
}

int read_back(DeviceQueue& queue, void* allocation) {
  int value = 0;
  queue.copy_to_host(&value, allocation, CopyLayout::contiguous(0, sizeof value));
  queue.wait();
  return value;
}

// Starts `task` on another thread; true when start_task returned within `limit`.
// A task that writes `value` into `memory` once `dependency` is done.
Task copy_task_after(std::shared_ptr<TaskEvent> dependency, void* memory, int value) {
  return Task{std::make_shared<TaskEvent>("task"), {std::move(dependency)}, {},
              std::make_shared<CopyBody>(memory, value)};
}

bool starts_within(Task& task, DeviceQueue* queue, std::chrono::milliseconds limit,
                   std::future<void>& started) {
  started = std::async(std::launch::async, [&task, queue] { plexus::start_task(task, queue); });
  return started.wait_for(limit) == std::future_status::ready;
}

}  // namespace

TEST_CASE("start_task enqueues behind a dependency pending on the same queue",
          "[devices][queue][start_task]") {
  for_each_device([](Device& device) {
    Allocation memory(device, sizeof(int));
    const auto queue = device.create_queue();
    auto dependency = running_dependency(queue.get());
    Task task = copy_task_after(dependency, memory.get(), 42);
    std::future<void> started;
    REQUIRE(starts_within(task, queue.get(), std::chrono::seconds(20), started));
    CHECK(task.event->pending_on() == queue.get());
    CHECK_FALSE(task.event->is_done());  // not before its dependency
    dependency->mark_complete();
    task.event->wait();
    CHECK(task.event->status() == plexus::TaskStatus::complete);
    CHECK(read_back(*queue, memory.get()) == 42);
  });
}

TEST_CASE("start_task fails a task whose unwaited dependency fails",
          "[devices][queue][start_task]") {
  for_each_device([](Device& device) {
    Allocation memory(device, sizeof(int));
    const auto queue = device.create_queue();
    auto dependency = running_dependency(queue.get());
    Task task = copy_task_after(dependency, memory.get(), 7);
    std::future<void> started;
    REQUIRE(starts_within(task, queue.get(), std::chrono::seconds(20), started));
    dependency->mark_failed(std::make_exception_ptr(std::runtime_error("dependency broke")));
    CHECK_THROWS_WITH(task.event->wait(), "dependency broke");
    CHECK(task.event->status() == plexus::TaskStatus::failed);
  });
}

TEST_CASE("start_task waits for a dependency pending elsewhere", "[devices][queue][start_task]") {
  for_each_device([](Device& device) {
    Allocation memory(device, sizeof(int));
    const auto queue = device.create_queue();
    const auto other = device.create_queue();
    auto dependency = running_dependency(other.get());
    Task task = copy_task_after(dependency, memory.get(), 9);
    std::future<void> started;
    CHECK_FALSE(starts_within(task, queue.get(), std::chrono::milliseconds(100), started));
    CHECK(task.event->status() == plexus::TaskStatus::submitted);  // nothing enqueued yet
    dependency->mark_complete();
    REQUIRE(started.wait_for(std::chrono::seconds(20)) == std::future_status::ready);
    task.event->wait();
    CHECK(read_back(*queue, memory.get()) == 9);
  });
}
