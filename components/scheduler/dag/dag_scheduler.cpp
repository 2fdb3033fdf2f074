#include "dag_scheduler.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <iterator>

#include "plexus/component_lookup.hpp"
#include "plexus/count_option.hpp"
#include "plexus/cpu_pause.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/task_execution.hpp"
#include "plexus/thread_start.hpp"

namespace plexus::dag {

namespace {
thread_local const DagScheduler* running_on = nullptr;  // the scheduler whose worker this is

// The last device task this thread submitted to a scheduler, and the queue it was given to
// when that was decided in submit(): a ready task that follows it on the same device may go
// on on its queue (a chain in program order: the memory model records no dependency on a
// task that is done already). Kept for a few schedulers, the most recently used first: a
// thread that submits to several runtimes in turn keeps each one's chain.
struct LastSubmitted {
  std::uint64_t scheduler = 0;  // DagScheduler::id_; 0: none
  std::weak_ptr<TaskEvent> event;
  DeviceQueue* queue = nullptr;
};
constexpr std::size_t schedulers_remembered = 4;
thread_local std::array<LastSubmitted, schedulers_remembered> last_submitted;

// This thread's entry for `scheduler`, moved to the front (the least recently used one is
// replaced by an empty entry when it has none).
LastSubmitted& last_submitted_to(std::uint64_t scheduler) {
  auto entry = std::find_if(last_submitted.begin(), last_submitted.end(),
                            [&](const LastSubmitted& last) { return last.scheduler == scheduler; });
  if (entry == last_submitted.end()) {
    entry = last_submitted.end() - 1;
    *entry = {scheduler, {}, nullptr};
  }
  std::rotate(last_submitted.begin(), entry, entry + 1);
  return last_submitted.front();
}

std::atomic<std::uint64_t> next_scheduler_id{1};

constexpr std::size_t auto_queues_on_gpu = 4;  // DeviceType gpu and accelerator

// [scheduler.dag]: workers, spin_us, inline_us, queues_per_device (dag_scheduler.hpp).
struct Settings {
  std::int64_t workers = 1;
  std::chrono::microseconds spin{50};
  std::chrono::microseconds inline_start{50};
  std::size_t queues_per_device = 0;  // 0: "auto"
};

Settings read_settings(const ComponentOptions& options) {
  Settings settings;
  settings.workers = options.get_in_range(
      "workers",
      std::min(static_cast<std::int64_t>(std::thread::hardware_concurrency()), max_workers), 0,
      max_workers);
  if (settings.workers == 0) settings.workers = 1;
  settings.spin = std::chrono::microseconds(
      options.get_in_range("spin_us", 50, 0, max_spin_us, "microseconds"));
  settings.inline_start = std::chrono::microseconds(
      options.get_in_range("inline_us", 50, 0, max_inline_us, "microseconds"));
  settings.queues_per_device = auto_or_count_option(
      options, "queues_per_device", max_queues_per_device,
      ": give \"auto\" (the default: 4 queues on a GPU or accelerator, one per worker on a CPU) "
      "or an integer from 1 to 64 (at most that many queues on every device)");
  return settings;
}
}  // namespace

struct DagScheduler::Node {
  Task task;
  Device* placement = nullptr;   // nullptr: the host
  DeviceQueue* queue = nullptr;  // the worker's queue on `placement`, once given
};

struct DagScheduler::Worker {
  std::condition_variable wake;           // a task for it, a host task for anyone, or stopping
  std::deque<std::shared_ptr<Node>> own;  // device tasks given to it, in order; under mutex_
  std::unordered_map<Device*, std::unique_ptr<DeviceQueue>> queues;  // created under mutex_
  bool busy = false;      // running a task, or spinning for the next of a chain; under mutex_
  // The event of the task it runs; under mutex_. Once that event is done the worker is only
  // finishing: the next task of its chain may go to it.
  const TaskEvent* running = nullptr;
  // In start_task (set under mutex_ when it takes a task, cleared without it after): while
  // false, it uses none of its queues and takes nothing without mutex_.
  std::atomic<bool> starting{false};
  // Its queues are lent to a submitting thread (start_inline): it takes nothing from `own`
  // until they are given back. Under mutex_.
  bool lent = false;
  bool sleeping = false;  // waiting on `wake`: give() notifies; under mutex_
  // Spinning for the next task of its chain after a device task, with nothing else to do:
  // written by the worker without the lock, read under it (a stale value only costs a
  // wake-up, or one task placed as if the worker were busy).
  std::atomic<bool> spinning{false};
  std::atomic<std::uint64_t> given{0};  // tasks ever put in `own`: polled while spinning
};

DagScheduler::DagScheduler(PluginContext& context)
    : id_(next_scheduler_id.fetch_add(1, std::memory_order_relaxed)) {
  const auto devices = available_devices(context.components);
  if (!devices.empty()) first_device_ = devices.front();
  const Settings settings = read_settings(context.options);
  spin_ = settings.spin;
  inline_start_ = settings.inline_start;
  queues_per_device_ = settings.queues_per_device;
  for (std::int64_t i = 0; i < settings.workers; ++i) workers_.push_back(std::make_unique<Worker>());
  // Fewer workers when the system refuses some (a warning); none: plexus::error(resource).
  const std::size_t started = start_threads(
      threads_, workers_.size(), [this](std::size_t i) { work(*workers_[i]); },
      "scheduler dag: worker threads", true);
  std::lock_guard lock(mutex_);  // work() indexes workers_ (never reallocated here)
  workers_.resize(started);       // the workers without a thread are never given a task
}

void DagScheduler::check_options(const ComponentOptions& options) { read_settings(options); }

DagScheduler::~DagScheduler() {
  wait_for_submitted();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  for (auto& worker : workers_) worker->wake.notify_all();
  for (auto& thread : threads_) thread.join();
  workers_.clear();  // the queues wait for their work and run their last callbacks
}

void DagScheduler::submit(Task task) {
  if (!task.event) {
    throw error(error_category::invalid_argument, "dag scheduler: a task without an event");
  }
  if (task.is_join()) {
    submit_join(std::move(task));
    return;
  }
  auto node = std::make_shared<Node>();
  node->task = std::move(task);
  Lent lent;  // the queue of a chain this thread goes on with itself
  std::shared_ptr<TaskEvent> previous;  // the last device task this thread submitted here
  DeviceQueue* previous_queue = nullptr;  // its queue, when its event is gone (done)
  if (node->task.body) {
    node->placement = default_placement(*node->task.body, first_device_);
    try {
      place_task(node->task, node->placement);
    } catch (...) {
      node->task.event->mark_failed(std::current_exception());
      return;
    }
  }
  if (node->task.submitter_waits && !node->placement && all_done(node->task.dependencies)) {
    run_for_submitter(std::move(node));
    return;
  }
  if (node->task.body) {
    if (node->placement) {
      LastSubmitted& last = last_submitted_to(id_);
      previous = last.event.lock();
      if (!previous) previous_queue = last.queue;
      last = {id_, node->task.event, nullptr};
    }
  }
  {
    std::lock_guard lock(mutex_);  // one lock per submission
    unstarted_.fetch_add(1, std::memory_order_relaxed);
    track_locked(node->task.event);
    if (node->placement) {
      // Behind its unfinished dependencies on queues of the device, at once: started here
      // when it goes on a chain of quick starts (lend_for_inline), else by the worker.
      if (auto [worker, queue] = early_queue(node->task, node->placement); worker) {
        lent = lend_for_inline(*worker, *queue, node->task);
        if (!lent) {
          last_submitted.front().queue = queue;  // this task's entry (last_submitted_to)
          give(*worker, queue, std::move(node));
          return;
        }
      }
    }
    if (!lent) {
      if (all_done(node->task.dependencies)) {
        // Ready: the next task of a chain whose worker is free is started here, too.
        if (node->placement)
          lent = lend_for_ready(node->task, node->placement, previous.get(), previous_queue);
        if (!lent) {
          const Node& given = *node;  // kept alive by the worker it goes to (under mutex_)
          make_ready_locked(std::move(node));
          if (given.placement) last_submitted.front().queue = given.queue;
          return;
        }
      }
    }
  }
  if (lent) {
    if (node->placement) last_submitted.front().queue = lent.queue;
    start_inline(lent, node->task);
    return;
  }
  const auto dependencies = node->task.dependencies;
  when_done(dependencies, [this, node] { make_ready(node); });
}

void DagScheduler::run_for_submitter(std::shared_ptr<Node> node) {
  {
    std::lock_guard lock(mutex_);
    unstarted_.fetch_add(1, std::memory_order_relaxed);
    track_locked(node->task.event);  // wait_all() waits for it
  }
  // As on a worker: wait_all() from inside the task is refused (it would wait for itself).
  struct RunningOn {
    const DagScheduler* previous = running_on;
    ~RunningOn() { running_on = previous; }
  } restore;
  running_on = this;
  run_task_now(node->task);  // its dependencies are done
  node.reset();  // the work's captures go before waiters see it let go (as work() does)
  let_go();
}

void DagScheduler::submit_join(Task task) {
  {
    std::lock_guard lock(mutex_);
    track_locked(task.event);  // wait_all() waits for it
  }
  // Completed where its last dependency completes (here when all are done): it does no work,
  // and a worker would first have to be woken for it (under inorder it runs on this thread).
  // Captures no scheduler state: it may run as the scheduler goes (its event done first).
  auto join = std::make_shared<Task>(std::move(task));
  when_done(join->dependencies, [join] { run_task_now(*join); });
}

void DagScheduler::track_locked(const std::shared_ptr<TaskEvent>& event) {
  submitted_.push_back(event);
  if (submitted_.size() >= 2 * submitted_kept_ + 64) drop_done_locked();
}

std::pair<DagScheduler::Worker*, DeviceQueue*> DagScheduler::early_queue(const Task& task,
                                                                         Device* placement) {
  const std::pair<Worker*, DeviceQueue*> none{nullptr, nullptr};
  std::pair<Worker*, DeviceQueue*> chain = none;  // a queue whose last task is a dependency
  DeviceQueue* first = nullptr;
  bool one_queue = true, markers = true, any = false;
  for (const auto& dependency : task.dependencies) {
    if (!dependency || dependency->is_done()) continue;
    DeviceQueue* pending = dependency->pending_on();
    const auto owner = pending ? owners_.find(pending) : owners_.end();
    if (owner == owners_.end() || owner->second.device != placement) return none;
    any = true;
    if (!first) first = pending;
    one_queue = one_queue && pending == first;
    markers = markers && pending->orders_by_markers();
    if (!chain.first && owner->second.tail == dependency)
      chain = {owner->second.worker, pending};
  }
  if (!any) return none;  // ready now
  if (!markers) {
    // Without markers only an in-order queue orders tasks on the device: the one queue.
    // Not for a task the device runs several of at once (a host-backend native task on the
    // worker's thread): the forks of one task would all line up behind it on one worker.
    if (!one_queue || (task.body && task.body->tasks_at_once(*placement) > 1)) return none;
    return {owners_.at(first).worker, first};
  }
  if (chain.first) return chain;
  Worker& worker = pick_worker(placement);  // a fork: another queue, ordered by markers
  return {&worker, queue_of(worker, placement)};
}

void DagScheduler::make_ready(std::shared_ptr<Node> node) {
  std::lock_guard lock(mutex_);
  make_ready_locked(std::move(node));
}

DagScheduler::Worker* DagScheduler::chain_worker(const Task& task, Device* placement) {
  for (const auto& dependency : task.dependencies) {
    DeviceQueue* queue = dependency ? dependency->pending_on() : nullptr;
    const auto owner = queue ? owners_.find(queue) : owners_.end();
    if (owner == owners_.end() || owner->second.device != placement ||
        owner->second.tail != dependency)
      continue;
    Worker* worker = owner->second.worker;
    // Idle, spinning, or finishing the dependency itself (done: its own completion, or the
    // submitting thread, made this task ready): it takes the task within microseconds,
    // where another worker would have to be woken (a wake-up per task of a chain).
    if (worker->own.empty() && !worker->lent &&
        (!worker->busy || worker->running == dependency.get() ||
         worker->spinning.load(std::memory_order_relaxed)))
      return worker;
  }
  return nullptr;
}

void DagScheduler::make_ready_locked(std::shared_ptr<Node> node) {
  if (node->placement) {
    // The next task of a chain whose last task is done goes on where the chain was, when
    // that worker has nothing else to do: it spins for it, its queue holds the data; another
    // worker would sleep (a wake-up per task) and the chain would hop between queues.
    Worker* chained = chain_worker(node->task, node->placement);
    Worker& worker = chained ? *chained : pick_worker(node->placement);
    DeviceQueue* queue = queue_of(worker, node->placement);
    give(worker, queue, std::move(node));
    return;
  }
  host_ready_.push_back(std::move(node));
  for (auto& worker : workers_) {
    if (!worker->busy && worker->own.empty()) {  // idle: waiting for work
      worker->busy = true;  // taken for this task: the next one wakes another worker
      worker->wake.notify_one();
      return;
    }
  }
  // every worker is busy: the first to finish takes it
}

void DagScheduler::give(Worker& worker, DeviceQueue* queue, std::shared_ptr<Node> node) {
  node->queue = queue;
  // Later tasks may chain behind it from now: this worker enqueues it before them.
  node->task.event->set_pending_on(queue);
  QueueOwner& owner = owners_.at(queue);
  owner.tail = node->task.event;
  worker.own.push_back(std::move(node));
  worker.given.fetch_add(1, std::memory_order_release);
  if (worker.sleeping) worker.wake.notify_one();  // else it spins or runs: no wake-up to pay
}

DagScheduler::Lent DagScheduler::lend_for_inline(Worker& worker, DeviceQueue& queue,
                                                 const Task& task) {
  if (inline_start_.count() == 0 || worker.lent ||
      worker.starting.load(std::memory_order_acquire))
    return {};
  QueueOwner& owner = owners_.at(&queue);
  if (owner.starts.hand_off(inline_start_)) return {};  // starts held their thread long
  // start_task must not wait for another queue here: only work of this queue comes first.
  const auto behind_queue = [&](const Task& t) {
    return std::all_of(t.dependencies.begin(), t.dependencies.end(), [&](const auto& dependency) {
      return !dependency || dependency->is_done() || dependency->pending_on() == &queue;
    });
  };
  for (const auto& node : worker.own)  // what it has not started yet goes first, here
    if (node->queue != &queue || !behind_queue(node->task)) return {};
  if (!behind_queue(task)) return {};
  Lent lent{&worker, &queue, &owner.starts, {}};
  lent.taken.assign(std::make_move_iterator(worker.own.begin()),
                    std::make_move_iterator(worker.own.end()));
  worker.own.clear();
  worker.given.fetch_sub(lent.taken.size(), std::memory_order_relaxed);
  worker.lent = true;
  task.event->set_pending_on(&queue);  // later tasks may chain behind it (as give() does)
  owner.tail = task.event;
  return lent;  // starts: owners_ keeps its entries until the scheduler goes
}

DagScheduler::Lent DagScheduler::lend_for_ready(const Task& task, Device* placement,
                                                const TaskEvent* previous,
                                                DeviceQueue* previous_queue) {
  if (Worker* chained = chain_worker(task, placement))
    return lend_for_inline(*chained, *queue_of(*chained, placement), task);
  DeviceQueue* queue = previous ? (previous->is_done() ? previous->pending_on() : nullptr)
                                : previous_queue;  // gone: done, on the queue it was given
  const auto owner = queue ? owners_.find(queue) : owners_.end();
  if (owner == owners_.end() || owner->second.device != placement) return {};
  return lend_for_inline(*owner->second.worker, *queue, task);
}

void DagScheduler::start_inline(Lent& lent, Task& task) {
  // The queues go back to their worker however this ends (start_task reports a task's
  // failure in its event; this only guards against a throw all the same).
  struct GiveBack {
    DagScheduler& scheduler;
    Worker& worker;
    ~GiveBack() {
      std::lock_guard lock(scheduler.mutex_);
      worker.lent = false;
      if (!worker.own.empty() && worker.sleeping) worker.wake.notify_one();
    }
  } give_back{*this, *lent.worker};
  for (auto& node : lent.taken) {
    timed_start(node->task, *lent.queue, *lent.starts);
    node.reset();
    let_go();
  }
  timed_start(task, *lent.queue, *lent.starts);
  let_go();
}

bool DagScheduler::StartTimes::hand_off(std::chrono::nanoseconds limit) const {
  const std::int64_t latest = last.load(std::memory_order_relaxed);
  const std::int64_t quicker = std::min(latest, before.load(std::memory_order_relaxed));
  return latest == no_start || std::chrono::nanoseconds(quicker) >= limit ||
         std::chrono::nanoseconds(latest) >= limit * long_start_factor;
}

void DagScheduler::timed_start(Task& task, DeviceQueue& queue, StartTimes& starts) {
  const auto start = std::chrono::steady_clock::now();
  start_task(task, &queue);
  // How long the start held this thread: the whole task on a synchronous device (the host
  // backend), the enqueue on an asynchronous one (CUDA's launch thread takes a launch in
  // well under a microsecond; the task then runs on the device while this thread goes on).
  starts.record(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count());
}

DeviceQueue* DagScheduler::queue_of(Worker& worker, Device* device) {
  auto& queue = worker.queues[device];
  if (!queue) {
    queue = device->create_queue();
    QueueOwner& owner = owners_[queue.get()];
    owner.worker = &worker;
    owner.device = device;
    device_workers_[device].push_back(&worker);
  }
  return queue.get();
}

std::size_t DagScheduler::queue_limit(const Device* device) const {
  if (queues_per_device_ > 0) return queues_per_device_;
  const DeviceType type = device->info().type;
  if (type == DeviceType::gpu || type == DeviceType::accelerator) return auto_queues_on_gpu;
  return workers_.size();
}

DagScheduler::Worker& DagScheduler::pick_worker(Device* device) {
  // Idle: nothing given to it and waiting for work: asleep, or spinning after its last task.
  const auto idle = [](const Worker& worker) {
    return worker.own.empty() && !worker.lent &&
           (!worker.busy || worker.spinning.load(std::memory_order_relaxed));
  };
  // How far a worker's queue on the device is from taking a task at once: 0 when its work
  // there is done and the worker idle; +2 while work is in the queue; +1 while it is busy.
  const auto distance = [&](Worker& worker) {
    const std::shared_ptr<TaskEvent>& tail = owners_.at(worker.queues.at(device).get()).tail;
    return (tail && !tail->is_done() ? 2 : 0) + (idle(worker) ? 0 : 1);
  };
  const std::vector<Worker*>& warm = device_workers_[device];
  Worker* best = nullptr;
  int best_distance = 0;
  for (std::size_t i = 0; i < warm.size(); ++i) {
    Worker& worker = *warm[(next_worker_ + i) % warm.size()];
    const int d = distance(worker);
    if (!best || d < best_distance ||
        (d == best_distance && worker.own.size() < best->own.size())) {
      best = &worker;
      best_distance = d;
    }
  }
  if (best && best_distance == 0) {
    next_worker_ = (next_worker_ + 1) % workers_.size();
    return *best;
  }
  if (warm.size() < queue_limit(device)) {
    // A new queue on the device: an idle worker first, else the least loaded without one.
    Worker* fresh = nullptr;
    for (std::size_t i = 0; i < workers_.size(); ++i) {
      Worker& worker = *workers_[(next_worker_ + i) % workers_.size()];
      if (worker.queues.contains(device)) continue;
      if (idle(worker)) {
        fresh = &worker;
        break;
      }
      if (!fresh || worker.own.size() < fresh->own.size()) fresh = &worker;
    }
    if (fresh) best = fresh;
  }
  next_worker_ = (next_worker_ + 1) % workers_.size();
  return *best;
}

void DagScheduler::drop_done_locked() {
  std::erase_if(submitted_, [](const auto& event) { return event->is_done(); });
  submitted_kept_ = submitted_.size();
}

void DagScheduler::let_go() {
  if (unstarted_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  std::lock_guard lock(mutex_);  // a waiter checks unstarted_ under it: no lost wake-up
  idle_cv_.notify_all();
}

void DagScheduler::wait_for_submitted() {
  std::vector<std::shared_ptr<TaskEvent>> events;
  {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [this] { return unstarted_.load(std::memory_order_acquire) == 0; });
    events = submitted_;
  }
  // The failures belong to the tasks' events: waiting for all only waits (not observing).
  for (const auto& event : events) event->wait_done();
  std::lock_guard lock(mutex_);
  drop_done_locked();
}

void DagScheduler::wait_all() {
  if (running_on == this) {
    throw error(error_category::invalid_argument,
                "dag scheduler: wait_all() from inside a task would wait for that task; wait "
                "on the events you need instead");
  }
  wait_for_submitted();
}

void DagScheduler::work(Worker& worker) {
  running_on = this;
  std::uint64_t taken = 0;  // of worker.given
  bool ran_device_task = false;
  for (;;) {
    // After a device task, the next of its chain usually follows within microseconds:
    // waiting for it here saves the submitting thread a wake-up per task.
    if (ran_device_task && spin_.count() > 0) {
      worker.spinning.store(true, std::memory_order_relaxed);
      spin_for(spin_, Spin::pausing,
               [&] { return worker.given.load(std::memory_order_acquire) != taken; });
      worker.spinning.store(false, std::memory_order_relaxed);
    }
    std::shared_ptr<Node> node;
    StartTimes* start_times = nullptr;  // node->queue's, when it has one
    {
      std::unique_lock lock(mutex_);
      worker.busy = false;
      worker.running = nullptr;
      worker.sleeping = true;
      worker.wake.wait(lock, [&] {
        return stopping_ || (!worker.own.empty() && !worker.lent) || !host_ready_.empty();
      });
      worker.sleeping = false;
      const bool own = !worker.own.empty() && !worker.lent;
      std::deque<std::shared_ptr<Node>>& from = own ? worker.own : host_ready_;
      if (from.empty()) return;  // stopping, nothing left
      node = std::move(from.front());
      from.pop_front();
      worker.busy = true;
      worker.running = node->task.event.get();
      worker.starting.store(true, std::memory_order_relaxed);  // under mutex_
      if (node->queue) start_times = &owners_.at(node->queue).starts;
      taken += own ? 1 : 0;
      ran_device_task = own;
    }
    // Waits for the dependencies not pending on node->queue (done, unless chained), then
    // enqueues a device task's work there (a host task runs here).
    if (start_times) {
      timed_start(node->task, *node->queue, *start_times);
    } else {
      start_task(node->task, node->queue);
    }
    worker.starting.store(false, std::memory_order_release);  // its queues are free
    node.reset();  // the work's captures go (if it ran here) before waiters see it let go
    let_go();
  }
}

}  // namespace plexus::dag
