// DagScheduler: the `scheduler/dag` component. Every task whose dependencies are done is
// dispatched at once to a pool of worker threads, so independent tasks really run
// concurrently; a task waits only for its own dependencies (events of earlier tasks, on
// this or any other scheduler). Device tasks run on the device their queue asked for (else
// the first device); each worker has its own queue on each device, so independent kernels on
// one device run concurrently too.
//
// Options ([scheduler.dag]): workers (integer, default: the number of hardware threads).
// Thread-safety: submit() and wait_all() may be called from any thread; wait_all() from
// inside a task is refused (it would wait for itself). The destructor waits for every task
// submitted, then stops the workers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
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
  void make_ready(std::shared_ptr<Node> node);
  void work();

  std::mutex mutex_;
  std::condition_variable ready_cv_;  // workers: a task is ready, or stopping
  std::condition_variable idle_cv_;   // wait_all: outstanding reached 0
  std::deque<std::shared_ptr<Node>> ready_;
  std::uint64_t outstanding_ = 0;     // submitted and not yet finished
  bool stopping_ = false;
  Device* first_device_ = nullptr;  // of the available backends; nullptr: none
  std::vector<std::thread> workers_;
};

}  // namespace plexus::dag
