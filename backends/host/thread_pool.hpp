// ThreadPool: the worker threads of one host device. parallel_for() runs a body over an
// index range on the workers and on the calling thread, and returns when every index has
// run. Several callers may run parallel_for() at once (their jobs share the workers).
//
// Ownership: owns its threads; the destructor joins them (no job may be running).
// Thread-safety: parallel_for() is safe from any thread; a body must not throw (the first
// exception a body throws is rethrown by parallel_for after every index has run).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace plexus::host {

class ThreadPool {
 public:
  // `participants` threads work on each job: participants - 1 workers plus the caller.
  // `cpus` (may be empty) are the logical CPUs the workers are pinned to, round-robin.
  // Workers the system refuses to start are left out, with a warning (participants() says
  // how many there are).
  ThreadPool(std::size_t participants, std::vector<int> cpus);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // The most threads that work on one job (each gets a distinct `slot` below this).
  std::size_t participants() const { return workers_.size() + 1; }

  // Calls body(index, slot) once for each index in [0, count). `slot` identifies the
  // thread within this job (0 .. participants()-1), e.g. to pick per-thread scratch memory.
  void parallel_for(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body);

 private:
  struct Job;
  void worker_loop(std::size_t worker);
  static void work_on(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;  // guarded by mutex_
  bool stopping_ = false;                  // guarded by mutex_
  std::vector<std::thread> workers_;
};

}  // namespace plexus::host
