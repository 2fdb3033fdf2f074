#include "thread_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <exception>

#include "plexus/thread_start.hpp"

namespace plexus::host {

struct ThreadPool::Job {
  std::size_t count = 0;
  const std::function<void(std::size_t, std::size_t)>* body = nullptr;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> slots{0};
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t done = 0;        // guarded by mutex
  std::exception_ptr failure;  // guarded by mutex
};

ThreadPool::ThreadPool(std::size_t participants, std::vector<int> cpus) {
  const std::size_t workers = participants > 1 ? participants - 1 : 0;
  // Fewer workers when the system refuses some (a warning): the caller runs every job too.
  start_threads(workers_, workers, [this](std::size_t i) { worker_loop(i); },
                "host backend: launch worker threads", false);
  if (cpus.empty()) return;
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus[(i + 1) % cpus.size()], &set);
    // Best effort: a container may forbid it; the threads then float.
    pthread_setaffinity_np(workers_[i].native_handle(), sizeof set, &set);
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::work_on(Job& job) {
  const std::size_t slot = job.slots.fetch_add(1);
  std::size_t ran = 0;
  std::exception_ptr failure;
  for (std::size_t index = job.next.fetch_add(1); index < job.count;
       index = job.next.fetch_add(1)) {
    try {
      (*job.body)(index, slot);
    } catch (...) {
      if (!failure) failure = std::current_exception();
    }
    ++ran;
  }
  if (ran == 0 && !failure) return;
  std::lock_guard lock(job.mutex);
  if (failure && !job.failure) job.failure = failure;
  job.done += ran;
  if (job.done == job.count) job.finished.notify_all();
}

void ThreadPool::worker_loop(std::size_t) {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = jobs_.front();
      // A job with every index claimed leaves the queue; its runners finish it.
      if (job->next.load() >= job->count || job->slots.load() + 1 >= participants()) {
        jobs_.pop_front();
        if (job->next.load() >= job->count) continue;
      }
    }
    work_on(*job);
  }
}

void ThreadPool::parallel_for(std::size_t count,
                              const std::function<void(std::size_t, std::size_t)>& body) {
  if (count == 0) return;
  auto job = std::make_shared<Job>();
  job->count = count;
  job->body = &body;
  if (count > 1 && !workers_.empty()) {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(job);
    }
    if (count == 2 || workers_.size() == 1) {
      wake_.notify_one();
    } else {
      wake_.notify_all();
    }
  }
  work_on(*job);
  std::unique_lock lock(job->mutex);
  job->finished.wait(lock, [&] { return job->done == job->count; });
  if (job->failure) std::rethrow_exception(job->failure);
}

}  // namespace plexus::host
