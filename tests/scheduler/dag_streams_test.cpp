// scheduler/dag's queues per device: independent device tasks go to different queues of one
// device (at most queues_per_device of them), a task that forks off a dependency's queue is
// enqueued on another queue at once, ordered behind the dependency by a marker on the device
// (DeviceQueue::wait_for) and not by waiting for it, and a chain stays on its queue. A fake
// device whose queues log what they are asked and hold their completions until the test
// releases them makes "not waited for" and the order on each queue observable.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "plexus/device.hpp"
#include "plexus/device_info.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/task_body.hpp"
#include "device_task_body.hpp"
#include "held_completions.hpp"
#include "scheduler_support.hpp"

namespace {

// One line per operation: "<queue> run <task>", "<queue> wait <task>" (wait_for a marker
// recorded after <task>), in the order they happened, and the completions the queues were
// asked for, held until the test releases them. Thread-safe.
struct StreamLog {
  std::mutex mutex;
  std::vector<std::string> lines;
  std::map<int, int> queue_of;  // task -> queue number
  int queues = 0;
  plexus::test::HeldCompletions completions;

  // Waits until `n` tasks ran and asked for their completion (held now).
  bool wait_for_runs(std::size_t n) { return completions.wait_for_asked(n); }
  // The index of `line` in the log, or -1.
  int index(const std::string& line) {
    std::lock_guard lock(mutex);
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i] == line) return static_cast<int>(i);
    return -1;
  }
};

struct LoggedMarker final : plexus::QueueMarker {
  int after = -1;  // the last task enqueued on the queue when it was made
};

// An in-order queue that can order itself behind markers; work "runs" when released.
class MarkedQueue final : public plexus::DeviceQueue {
 public:
  explicit MarkedQueue(StreamLog& log) : log_(log) {
    std::lock_guard lock(log_.mutex);
    number_ = log_.queues++;
  }
  void copy_to_device(void*, const void*, const plexus::CopyLayout&) override {}
  void copy_to_host(void*, const void*, const plexus::CopyLayout&) override {}
  void launch(const plexus::DeviceKernel&, const plexus::NdRange&,
              std::span<const plexus::KernelArgument>) override {}
  void wait() override {}
  void on_complete(std::function<void(std::exception_ptr)> done) override {
    int last = -1;
    {
      std::lock_guard lock(log_.mutex);
      last = last_;
    }
    log_.completions.hold(number_, last, std::move(done));
  }
  bool orders_by_markers() const override { return true; }
  std::shared_ptr<const plexus::QueueMarker> mark() override {
    auto marker = std::make_shared<LoggedMarker>();
    std::lock_guard lock(log_.mutex);
    marker->after = last_;
    return marker;
  }
  std::shared_ptr<const plexus::QueueMarker> mark_from_any_thread() override { return mark(); }
  bool wait_for(const plexus::QueueMarker& marker) override {
    std::lock_guard lock(log_.mutex);
    log_.lines.push_back(std::to_string(number_) + " wait " +
                         std::to_string(static_cast<const LoggedMarker&>(marker).after));
    return true;
  }
  void run(int task) {
    std::lock_guard lock(log_.mutex);
    log_.lines.push_back(std::to_string(number_) + " run " + std::to_string(task));
    log_.queue_of[task] = number_;
    last_ = task;
  }

 private:
  StreamLog& log_;
  int number_ = 0;
  int last_ = -1;
};

class MarkedDevice final : public plexus::Device {
 public:
  explicit MarkedDevice(StreamLog& log) : log_(log) {
    info_.name = "marked device";
    info_.type = plexus::DeviceType::gpu;
  }
  const plexus::DeviceInfo& info() const override { return info_; }
  plexus::Backend& backend() const override { throw std::logic_error("no backend"); }
  std::unique_ptr<plexus::DeviceQueue> create_queue() override {
    return std::make_unique<MarkedQueue>(log_);
  }

 private:
  StreamLog& log_;
  plexus::DeviceInfo info_;
};

class RunBody final : public plexus::test::DeviceTaskBody {
 public:
  RunBody(plexus::Device& device, int id) : DeviceTaskBody(device, "run body"), id_(id) {}

 private:
  void enqueue_work(plexus::DeviceQueue& queue) override { static_cast<MarkedQueue&>(queue).run(id_); }

  int id_;
};

using Events = std::vector<std::shared_ptr<plexus::TaskEvent>>;

std::shared_ptr<plexus::TaskEvent> submit_to(plexus::Scheduler& scheduler, plexus::Device& device,
                                             int id, Events after = {}) {
  auto event = std::make_shared<plexus::TaskEvent>("task " + std::to_string(id));
  scheduler.submit(plexus::Task{event, std::move(after), {}, std::make_shared<RunBody>(device, id)});
  return event;
}

}  // namespace

TEST_CASE("dag: independent device tasks run on different queues of one device",
          "[scheduler][dag][streams]") {
  StreamLog log;
  MarkedDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 8\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  Events events;
  for (int id = 0; id < 6; ++id) events.push_back(submit_to(scheduler, device, id));
  REQUIRE(log.wait_for_runs(events.size()));
  for (const auto& event : events) CHECK_FALSE(event->is_done());  // all in flight at once
  std::set<int> queues;
  {
    std::lock_guard lock(log.mutex);
    for (const auto& [task, queue] : log.queue_of) queues.insert(queue);
  }
  CHECK(queues.size() == 4);  // "auto" on a GPU: 4 queues; none waits for another's tasks
  log.completions.open();
  scheduler.wait_all();
  for (const auto& event : events) CHECK(event->status() == plexus::TaskStatus::complete);
}

TEST_CASE("dag: queues_per_device = 1 runs a device's tasks on one queue",
          "[scheduler][dag][streams]") {
  StreamLog log;
  MarkedDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 8\nqueues_per_device = 1\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  Events events;
  for (int id = 0; id < 4; ++id) events.push_back(submit_to(scheduler, device, id));
  REQUIRE(log.wait_for_runs(events.size()));
  {
    std::lock_guard lock(log.mutex);
    for (const auto& [task, queue] : log.queue_of) CHECK(queue == 0);
  }
  log.completions.open();
  scheduler.wait_all();
}

TEST_CASE("dag: a fork runs on another queue behind a marker, without waiting on the host",
          "[scheduler][dag][streams]") {
  StreamLog log;
  MarkedDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 4\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  // A second queue exists first (an independent task), so that A records a marker.
  auto other = submit_to(scheduler, device, 9);
  REQUIRE(log.wait_for_runs(1));
  auto a = submit_to(scheduler, device, 0);
  auto b = submit_to(scheduler, device, 1, {a});     // the chain: behind A on its queue
  auto c = submit_to(scheduler, device, 2, {a});     // the fork: another queue, A's marker
  auto d = submit_to(scheduler, device, 3, {b, c});  // joins: behind B, C's marker
  REQUIRE(log.wait_for_runs(5));  // all enqueued while nothing has completed
  for (const auto& event : {a, b, c, d}) CHECK_FALSE(event->is_done());
  int queue_a = 0, queue_b = 0, queue_c = 0, queue_d = 0;
  {
    std::lock_guard lock(log.mutex);
    queue_a = log.queue_of[0], queue_b = log.queue_of[1], queue_c = log.queue_of[2];
    queue_d = log.queue_of[3];
  }
  CHECK(queue_b == queue_a);
  CHECK(queue_c != queue_a);
  CHECK(queue_d == queue_b);
  const auto at = [&](int queue, const char* what, int task) {
    return log.index(std::to_string(queue) + " " + what + " " + std::to_string(task));
  };
  // C's queue waits for a marker behind A before C: recorded after A by A's starter, or
  // after B by C's own worker when A was enqueued before C asked (B followed A there);
  // D's queue for C's marker before D.
  const int c_waits = std::max(at(queue_c, "wait", 0), at(queue_c, "wait", 1));
  CHECK(c_waits >= 0);
  CHECK(c_waits < at(queue_c, "run", 2));
  CHECK(at(queue_d, "wait", 2) >= 0);
  CHECK(at(queue_d, "wait", 2) < at(queue_d, "run", 3));
  log.completions.open();
  scheduler.wait_all();
  for (const auto& event : {a, b, c, d, other})
    CHECK(event->status() == plexus::TaskStatus::complete);
}

TEST_CASE("dag: a task ordered by a marker fails with its dependency",
          "[scheduler][dag][streams]") {
  StreamLog log;
  MarkedDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 4\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  auto other = submit_to(scheduler, device, 9);
  REQUIRE(log.wait_for_runs(1));
  auto a = submit_to(scheduler, device, 0);
  auto b = submit_to(scheduler, device, 1, {a});
  auto c = submit_to(scheduler, device, 2, {a});  // on another queue, behind A's marker
  REQUIRE(log.wait_for_runs(4));
  int queue_a = 0, queue_c = 0;
  {
    std::lock_guard lock(log.mutex);
    queue_a = log.queue_of[0], queue_c = log.queue_of[2];
  }
  REQUIRE(queue_c != queue_a);
  // A's queue fails (A and B with it); C's queue does not, yet C fails with A's failure. (A
  // plexus::error: each event that fails with one of its own keeps a copy of it.)
  log.completions.open(queue_a, std::make_exception_ptr(plexus::error(
                                    plexus::error_category::device, "A broke")));
  scheduler.wait_all();
  CHECK(a->status() == plexus::TaskStatus::failed);
  CHECK(b->status() == plexus::TaskStatus::failed);
  CHECK(c->status() == plexus::TaskStatus::failed);
  CHECK_THROWS_WITH(c->wait(), "A broke");
  // One failure, A's, carried on by B (its queue's failure, after A's: released in order)
  // and C: a wait on either has seen A's (runtime_options.hpp).
  CHECK(b->failure() == a->failure());
  CHECK(c->failure() == a->failure());
  CHECK(other->status() == plexus::TaskStatus::complete);
}

TEST_CASE("dag: a chain whose last task is done goes on on its queue while independent work goes beside it",
          "[scheduler][dag][streams]") {
  // The worker that ran A takes B, the next of A's chain, submitted once A is done, whatever
  // it is doing then, short of other work: still finishing A (the test keeps it in A's
  // on_complete, so that is certain), spinning for the chain, or asleep. B must not hop to
  // a new queue; C, independent, submitted while B waits for that worker, goes beside it.
  const bool stopped = GENERATE(true, false);
  INFO((stopped ? "the worker is still in A" : "the worker is past A: spinning or asleep"));
  StreamLog log;
  MarkedDevice device(log);
  auto set = plexus::test::scheduler_set("dag", "workers = 8\nspin_us = 300000\n");
  plexus::test::OpenAtExit open_at_exit(log.completions);  // before the scheduler goes
  plexus::Scheduler& scheduler = *set->scheduler();
  if (stopped) log.completions.stop_in(0);
  auto a = submit_to(scheduler, device, 0);
  REQUIRE(log.wait_for_runs(1));  // A's completion is held
  if (stopped) REQUIRE(log.completions.stopped_in());
  log.completions.release();
  a->wait();
  auto b = submit_to(scheduler, device, 1, {a});  // ready at once: A is done
  auto c = submit_to(scheduler, device, 2);       // independent
  log.completions.resume();
  REQUIRE(log.wait_for_runs(3));
  {
    std::lock_guard lock(log.mutex);
    CHECK(log.queue_of[1] == log.queue_of[0]);
    CHECK(log.queue_of[2] != log.queue_of[1]);  // runs beside B, not behind it
  }
  log.completions.open();
  scheduler.wait_all();
  for (const auto& event : {a, b, c}) CHECK(event->status() == plexus::TaskStatus::complete);
}
