// scheduler/dag's asynchronous device path: a chain of device tasks (each depending on the
// one before) is enqueued on one worker's in-order queue behind work that has not finished,
// without waiting for it; the events complete from the queue's on_complete, in order; a
// task that depends on work of another device waits for it; wait_all waits for enqueued
// work that has not completed. A fake device whose queues hold
// their completions until the test releases them makes "not waited for" observable.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "plexus/device.hpp"
#include "plexus/device_info.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/task_body.hpp"
#include "device_task_body.hpp"
#include "held_completions.hpp"
#include "scheduler_support.hpp"

namespace {

// What the fake queues saw, shared with the test, and the completions they were asked for,
// held until the test releases them. Thread-safe.
struct Log {
  std::mutex mutex;
  std::vector<std::pair<int, const plexus::DeviceQueue*>> enqueued;  // task id, queue
  plexus::test::HeldCompletions completions;

  std::size_t count() {
    std::lock_guard lock(mutex);
    return enqueued.size();
  }
  // Waits until `n` tasks have been enqueued and asked for their completion (held now).
  bool wait_for_enqueued(std::size_t n) { return completions.wait_for_asked(n); }
};

// An in-order queue whose work "runs" only when the test releases its completions.
class HeldQueue final : public plexus::DeviceQueue {
 public:
  explicit HeldQueue(Log& log) : log_(log) {}
  void copy_to_device(void*, const void*, const plexus::CopyLayout&) override {}
  void copy_to_host(void*, const void*, const plexus::CopyLayout&) override {}
  void launch(const plexus::DeviceKernel&, const plexus::NdRange&,
              std::span<const plexus::KernelArgument>) override {}
  void wait() override {}  // the test releases the completions before the queue goes
  void on_complete(std::function<void(std::exception_ptr)> done) override {
    log_.completions.hold(0, -1, std::move(done));
  }

 private:
  Log& log_;
};

class HeldDevice final : public plexus::Device {
 public:
  explicit HeldDevice(Log& log) : log_(log) { info_.name = "held device"; }
  const plexus::DeviceInfo& info() const override { return info_; }
  plexus::Backend& backend() const override { throw std::logic_error("no backend"); }
  std::unique_ptr<plexus::DeviceQueue> create_queue() override {
    return std::make_unique<HeldQueue>(log_);
  }

 private:
  Log& log_;
  plexus::DeviceInfo info_;
};

// A device task that records its id and queue when enqueued, and leaves work in the queue.
class LoggedBody final : public plexus::test::DeviceTaskBody {
 public:
  LoggedBody(Log& log, plexus::Device& device, int id)
      : DeviceTaskBody(device, "logged body"), log_(log), id_(id) {}

 private:
  void enqueue_work(plexus::DeviceQueue& queue) override {
    std::lock_guard lock(log_.mutex);
    log_.enqueued.emplace_back(id_, &queue);
  }

  Log& log_;
  int id_;
};

std::shared_ptr<plexus::TaskEvent> submit_device(
    plexus::Scheduler& scheduler, Log& log, plexus::Device& device, int id,
    std::vector<std::shared_ptr<plexus::TaskEvent>> after) {
  auto event = std::make_shared<plexus::TaskEvent>("device task");
  scheduler.submit(
      plexus::Task{event, std::move(after), {}, std::make_shared<LoggedBody>(log, device, id)});
  return event;
}

}  // namespace

TEST_CASE("dag: a chain of device tasks is enqueued on one queue without waiting",
          "[scheduler][dag]") {
  Log log;
  HeldDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 4\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  std::vector<std::shared_ptr<plexus::TaskEvent>> chain;
  for (int id = 0; id < 5; ++id) {
    std::vector<std::shared_ptr<plexus::TaskEvent>> after;
    if (!chain.empty()) after.push_back(chain.back());
    chain.push_back(submit_device(scheduler, log, device, id, after));
  }
  // Nothing has completed, yet every task is enqueued: behind its dependency, on its queue.
  REQUIRE(log.wait_for_enqueued(chain.size()));
  for (const auto& event : chain) CHECK_FALSE(event->is_done());
  {
    std::lock_guard lock(log.mutex);
    for (std::size_t i = 0; i < log.enqueued.size(); ++i) {
      CHECK(log.enqueued[i].first == static_cast<int>(i));
      CHECK(log.enqueued[i].second == log.enqueued.front().second);
    }
  }
  log.completions.open();
  scheduler.wait_all();
  for (const auto& event : chain) CHECK(event->status() == plexus::TaskStatus::complete);
}

TEST_CASE("dag: a device task waits for unfinished work of another device", "[scheduler][dag]") {
  Log first_log, second_log;
  HeldDevice first(first_log), second(second_log);
  auto set = plexus::test::scheduler_set("dag", "workers = 2\n");
  plexus::test::OpenAtExit open_first(first_log.completions), open_second(second_log.completions);
  plexus::Scheduler& scheduler = *set->scheduler();
  auto a = submit_device(scheduler, first_log, first, 0, {});
  REQUIRE(first_log.wait_for_enqueued(1));
  auto b = submit_device(scheduler, second_log, second, 1, {a});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(second_log.count() == 0);  // a is still running on the first device
  first_log.completions.release();
  REQUIRE(second_log.wait_for_enqueued(1));
  second_log.completions.open();
  scheduler.wait_all();
  CHECK(a->status() == plexus::TaskStatus::complete);
  CHECK(b->status() == plexus::TaskStatus::complete);
}

TEST_CASE("dag: wait_all waits for device tasks that are enqueued but not yet complete",
          "[scheduler][dag]") {
  Log log;
  HeldDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 2\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  std::vector<std::shared_ptr<plexus::TaskEvent>> events;
  for (int id = 0; id < 3; ++id) events.push_back(submit_device(scheduler, log, device, id, {}));
  REQUIRE(log.wait_for_enqueued(events.size()));  // the workers have let go of every task
  std::atomic<bool> waited{false};
  std::thread waiter([&] {
    scheduler.wait_all();
    waited = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(waited);  // the work is still in the queues
  log.completions.release();  // every completion is held (wait_for_enqueued)
  waiter.join();
  CHECK(waited);
  for (const auto& event : events) CHECK(event->status() == plexus::TaskStatus::complete);
}
