// DagScheduler: the `scheduler/dag` component. Every task whose dependencies are done is
// dispatched at once to a pool of worker threads, so independent tasks really run
// concurrently; a task waits only for its own dependencies (events of earlier tasks, on
// this or any other scheduler). Device tasks run on the device their queue asked for (else
// the first device); each worker has its own in-order queue on each device, so independent
// kernels on one device run concurrently too.
//
// Device tasks start asynchronously (start_task): a worker enqueues the task's copies and
// launch on its queue and goes on; the event completes from the queue's on_complete. A
// device task is given to one worker when it becomes ready, and its event marked pending on
// that worker's queue (TaskEvent::set_pending_on) at once: a later task whose unfinished
// dependencies are all pending on that one queue (a chain of kernels) goes to the same
// worker without waiting for them, and is enqueued behind them. The worker takes its own
// tasks in the order they were given, so a task marked pending on a queue is always
// enqueued there before anything given after it. Any other ready device task goes to an
// idle worker, one that already has a queue on the device first (a queue's first use makes
// a stream, threads: tens of microseconds). Host tasks go to whichever worker is free.
//
// A worker that has just enqueued a device task spins (spin_us, default 50 microseconds) for
// the next task of the chain before it sleeps, so that submitting a chain of kernels does
// not pay a wake-up per kernel; a sleeping worker is woken by the task given to it.
//
// Options ([scheduler.dag]): workers (integer, default: the number of hardware threads);
// spin_us (integer, default 50; 0: sleep at once).
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

class DagScheduler final : public Scheduler {
 public:
  explicit DagScheduler(PluginContext& context);
  ~DagScheduler() override;

  void submit(Task task) override;
  void wait_all() override;

 private:
  struct Node;
  struct Worker;
  struct QueueOwner {
    Worker* worker;
    Device* device;
  };
  // Gives a ready node to a worker (device tasks) or to the shared host-task deque.
  void make_ready(std::shared_ptr<Node> node);
  void make_ready_locked(std::shared_ptr<Node> node);  // under mutex_
  // The worker whose queue every unfinished dependency of `task` is pending on, with that
  // queue (on `placement`); {nullptr, nullptr} when there is none. Under mutex_.
  std::pair<Worker*, DeviceQueue*> chain_worker(const Task& task, Device* placement) const;
  void give(Worker& worker, DeviceQueue* queue, std::shared_ptr<Node> node);  // under mutex_
  DeviceQueue* queue_of(Worker& worker, Device* device);                      // under mutex_
  Worker& pick_worker(Device* device);                                        // under mutex_
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
  std::vector<std::unique_ptr<Worker>> workers_;
  std::size_t next_worker_ = 0;    // round robin when no worker is idle
  // Submitted nodes no worker has let go of yet (their events may still run after), and
  // the events submitted, the done ones dropped now and then (amortized O(1) per submit).
  std::atomic<std::uint64_t> unstarted_{0};
  std::vector<std::shared_ptr<TaskEvent>> submitted_;  // under mutex_
  std::size_t submitted_kept_ = 0;                     // its size after the last drop
  bool stopping_ = false;
  Device* first_device_ = nullptr;  // of the available backends; nullptr: none
  std::chrono::microseconds spin_{50};
  std::vector<std::thread> threads_;
};

}  // namespace plexus::dag
