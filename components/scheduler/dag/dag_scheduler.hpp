// DagScheduler: the `scheduler/dag` component. Every task whose dependencies are done is
// dispatched at once to a pool of worker threads, so independent tasks really run
// concurrently; a task waits only for its own dependencies (events of earlier tasks, on
// this or any other scheduler). Device tasks run on the device their queue asked for (else
// the first device).
//
// Queues (streams) per device: each worker that runs tasks on a device has its own
// in-order queue there, and a device gets at most queues_per_device of them; independent
// tasks on one device go to different queues and run concurrently on it (several CUDA
// streams, OpenCL command queues; on the host backend, several launches at once).
//
// Device tasks start asynchronously (start_task): a worker enqueues the task's copies and
// launch on its queue and goes on; the event completes from the queue's on_complete. A
// device task is given to one worker's queue when it becomes ready, or at once, before its
// dependencies are done, when every unfinished one is already given to a queue of the same
// device: then
//   - behind a dependency that is the last task given to its queue (a chain), on that queue;
//   - otherwise (a fork: the dependencies' queues have moved on) on another queue of the
//     device, chosen as for a ready task, ordered behind its dependencies on the device
//     (DeviceQueue::wait_for a marker recorded after each, TaskEvent::request_marker) —
//     when the device's queues can (orders_by_markers); where they cannot, only a task whose
//     unfinished dependencies are all on one queue is given at once, to that queue.
// Only a task ordered on another queue asks for markers: its dependency's starter records one
// when asked before enqueueing it, else the dependent records one on the dependency's queue
// itself (DeviceQueue::mark_from_any_thread); a chain records none. The worker takes its own tasks in the order
// they were given, so a task is always enqueued after everything it depends on was given
// (and so enqueued) before it. A ready device task (or a fork) goes to a queue of the device
// whose work is done and whose worker is idle first (a queue's first use makes a stream,
// threads: tens of microseconds), else to a new queue while the device has fewer than
// queues_per_device, else to the queue with done work, an idle worker and the fewest tasks
// waiting, in that order; a spinning worker (below) counts as idle. A ready device task one
// of whose dependencies was the last task given to a queue of the device (a chain whose last
// task is done already) goes on on that queue when its worker has nothing else to do, rather
// than hop to another queue and wake its worker. Host tasks go to whichever worker is free.
// A join (task.hpp: no work, a command that ends after others) is completed by the thread
// that completes its last dependency, or by the submitting thread when they are all done:
// never by a worker (a wake-up to do nothing). A host task whose submitter waits for it at
// once (Task::submitter_waits: a host access) and whose dependencies are done at submission
// runs on the submitting thread inside submit(): a worker would have to be woken for it, and
// then wake the submitter (two hand-offs while the submitter sits idle). With dependencies
// not done it goes to the workers as any host task (waiting on the submitting thread for an
// asynchronous device's kernel made a PoCL host access slower: docs/benchmarks.md).
//
// A worker that has just enqueued a device task spins (spin_us, default 50 microseconds) for
// the next task of the chain before it sleeps, so that submitting a chain of kernels does
// not pay a wake-up per kernel; a sleeping worker is woken by the task given to it.
//
// The submitting thread starts the next task of a chain itself (start_inline) when the
// chain's queue's last start, or the one before, held its thread under inline_us (on a
// synchronous device, the host backend, whose queues run kernels on the enqueueing thread,
// the whole task; on an asynchronous one, CUDA, PoCL, a remote device, the enqueue: a CUDA
// launch + wait then costs no wake-up of a worker, 35 us on an H200; one somewhat long
// start alone, as a preempted one on a busy machine, does not count, one
// of 200 x inline_us or more does: StartTimes::hand_off) and the queue's worker is not
// starting anything: it borrows the worker's queues (Worker::lent), starts first what the
// worker had not started there yet, then the task. The next task of a chain is one that
// depends on the queue's last task, or, ready, follows the last device task the same thread
// submitted to this scheduler (done: the memory model records no dependency on a task that
// is done; a thread remembers that task for a few schedulers, so that two runtimes used in
// turn keep their chains). A chain of tiny kernels then costs what inorder's does instead of
// a hand-off per kernel; a long start (a kernel that runs for long on the host backend, an
// enqueue that blocks) is handed to the worker, so it never holds up independent work
// submitted after it.
//
// Options ([scheduler.dag]): workers (integer, default: the number of hardware threads);
// spin_us (integer, default 50; 0: sleep at once); inline_us (integer, default 50; 0: the
// submitting thread never starts a task); queues_per_device ("auto", the default:
// 4 on a GPU or accelerator, one per worker on a CPU or other device; or an integer >= 1,
// on every device; 1 runs a device's tasks in one in-order queue, as before streams).
// Thread-safety: submit() and wait_all() may be called from any thread; wait_all() from
// inside a task is refused (it would wait for itself). The destructor waits for every task
// submitted, then stops the workers and then their queues.
#pragma once

#include <chrono>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "plexus/plugin_context.hpp"
#include "plexus/scheduler.hpp"
#include "plexus/task_execution.hpp"

namespace plexus::dag {

// The ranges of `[scheduler.dag] workers`, `spin_us`, `inline_us` and `queues_per_device`
// (docs/configuration.md).
constexpr std::int64_t max_workers = 1024;
constexpr std::int64_t max_spin_us = 1'000'000;
constexpr std::int64_t max_inline_us = 1'000'000;
constexpr std::int64_t max_queues_per_device = 64;

class DagScheduler final : public Scheduler {
 public:
  explicit DagScheduler(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~DagScheduler() override;

  void submit(Task task) override;
  void wait_all() override;

 private:
  struct Node;
  struct Worker;
  static constexpr std::int64_t no_start = INT64_MAX;
  // How long the last two start_task on a queue held the thread that ran them (ns; one
  // thread at a time): the whole task on a synchronous device (the host backend), the
  // enqueue on an asynchronous one (CUDA, PoCL, a remote device); no_start while none was
  // started there. Relaxed: a stale value only costs one task started by the other thread.
  struct StartTimes {
    std::atomic<std::int64_t> last{no_start};
    std::atomic<std::int64_t> before{no_start};
    void record(std::int64_t ns) {
      before.store(last.load(std::memory_order_relaxed), std::memory_order_relaxed);
      last.store(ns, std::memory_order_relaxed);
    }
    // Whether the next task there goes to the worker: none was started there yet, or
    // the last two both took `limit` or more, or the last took long_start_factor x `limit`
    // or more. One somewhat long start between quick ones (a start preempted on a busy
    // machine, a page fault) does not hand the chain off: a sleeping worker would have to be
    // woken, and the submitting thread would soon wait for it. A start that ran for
    // milliseconds did real work, and the tasks after it may be independent ones that
    // should run at once on the workers, not one by one on the submitting thread.
    static constexpr std::int64_t long_start_factor = 200;  // 10 ms at inline_us = 50
    bool hand_off(std::chrono::nanoseconds limit) const;
  };
  struct QueueOwner {
    Worker* worker = nullptr;
    Device* device = nullptr;
    std::shared_ptr<TaskEvent> tail;  // the last task given to the queue; done: queue idle
    StartTimes starts;
  };
  // A worker's queue lent to the submitting thread, with the tasks it had not started yet
  // there (taken from it, started first). Empty: nothing lent. (A vector: an empty one
  // allocates nothing, where a deque allocates its map and a node; a Lent is made, mostly
  // empty, at every submission.)
  struct Lent {
    Worker* worker = nullptr;
    DeviceQueue* queue = nullptr;
    StartTimes* starts = nullptr;  // the queue's QueueOwner::starts
    std::vector<std::shared_ptr<Node>> taken;
    explicit operator bool() const { return queue != nullptr; }
  };
  // A join (task.hpp): completed on the thread that completes its last dependency, or on
  // this one when they are all done; never given to a worker.
  void submit_join(Task task);
  // A host task whose submitter waits for it at once (Task::submitter_waits), its
  // dependencies done: run on this (submitting) thread instead of by a worker.
  void run_for_submitter(std::shared_ptr<Node> node);
  // submitted_ gets `event` (wait_all waits for it); under mutex_.
  void track_locked(const std::shared_ptr<TaskEvent>& event);
  // Gives a ready node to a worker (device tasks) or to the shared host-task deque.
  void make_ready(std::shared_ptr<Node> node);
  void make_ready_locked(std::shared_ptr<Node> node);  // under mutex_
  // The worker and queue (on `placement`) to give `task` to before its dependencies are done
  // (see above); {nullptr, nullptr} when it must wait for them. Under mutex_.
  std::pair<Worker*, DeviceQueue*> early_queue(const Task& task, Device* placement);
  // The worker whose queue on `placement` was last given one of `task`'s dependencies (done
  // or not), when it has nothing else to do (idle, or spinning for its chain); nullptr when
  // there is none. Under mutex_.
  Worker* chain_worker(const Task& task, Device* placement);
  void give(Worker& worker, DeviceQueue* queue, std::shared_ptr<Node> node);  // under mutex_
  // Lends `queue` of `worker` to this (submitting) thread to start `task` on, with the tasks
  // the worker has not started there yet, when the worker is not starting anything, the
  // queue's starts are quick (StartTimes::hand_off) and all they wait for is on that queue;
  // makes `task` the queue's tail. Empty when not. Under mutex_.
  Lent lend_for_inline(Worker& worker, DeviceQueue& queue, const Task& task);
  // For a ready `task` on `placement`: lend_for_inline on the queue of the chain it follows
  // (a dependency's, else that of the last device task this thread submitted, when done:
  // `previous`, or, that event gone, `previous_queue`, the queue it was given). Under mutex_.
  Lent lend_for_ready(const Task& task, Device* placement, const TaskEvent* previous,
                      DeviceQueue* previous_queue);
  // Starts the lent tasks, then `task`, on the lent queue on this thread; gives it back.
  void start_inline(Lent& lent, Task& task);
  // start_task(task, &queue), recording how long it took in `starts`.
  static void timed_start(Task& task, DeviceQueue& queue, StartTimes& starts);
  DeviceQueue* queue_of(Worker& worker, Device* device);                      // under mutex_
  Worker& pick_worker(Device* device);                                        // under mutex_
  std::size_t queue_limit(const Device* device) const;  // queues_per_device for it
  // A worker is done with a node (started it, or ran it): the last one wakes wait_all().
  void let_go();
  // Waits until every node submitted so far has been let go and its event is done.
  void wait_for_submitted();
  void drop_done_locked();  // under mutex_: submitted_ without the events already done
  void work(Worker& worker);

  std::mutex mutex_;
  std::condition_variable idle_cv_;               // wait_all: unstarted_ reached 0
  std::deque<std::shared_ptr<Node>> host_ready_;  // host tasks any worker may take
  std::unordered_map<const DeviceQueue*, QueueOwner> owners_;
  std::unordered_map<const Device*, std::vector<Worker*>> device_workers_;  // with a queue there
  std::vector<std::unique_ptr<Worker>> workers_;
  std::size_t next_worker_ = 0;    // round robin when no worker is idle
  // Submitted nodes no worker has let go of yet (their events may still run after), and
  // the events submitted, the done ones dropped now and then (amortized O(1) per submit).
  std::atomic<std::uint64_t> unstarted_{0};
  std::vector<std::shared_ptr<TaskEvent>> submitted_;  // under mutex_
  std::size_t submitted_kept_ = 0;                     // its size after the last drop
  bool stopping_ = false;
  const std::uint64_t id_;  // unique in the process (a thread's LastSubmitted names it)
  Device* first_device_ = nullptr;  // of the available backends; nullptr: none
  std::chrono::microseconds spin_{50};
  std::chrono::microseconds inline_start_{50};
  std::size_t queues_per_device_ = 0;  // 0: "auto"
  std::vector<std::thread> threads_;
};

}  // namespace plexus::dag
