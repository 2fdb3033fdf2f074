// HeldCompletions: the completions (DeviceQueue::on_complete callbacks) of the fake queues
// of the dag tests, held until the test releases them, so that "enqueued but not complete"
// and "not waited for" are observable. Deterministic by construction:
//   - a test waits until a task has asked for its completion (wait_for_asked), not only
//     until it enqueued its work: start_task asks after enqueueing, and a release in between
//     would hold that completion for ever (the scheduler's wait_all then never returns);
//   - open() ends the holding: what is held runs, and completions asked for later run at
//     once, so a scheduler going away (its destructor waits for every task) returns also when
//     a REQUIRE ended the test early (Held::~Held);
//   - stop_in(task) keeps the thread that asks for `task`'s completion inside on_complete
//     until resume(): the test, not a time race, decides what that worker is doing.
// Thread-safety: every member may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace plexus::test {

class HeldCompletions {
 public:
  using Callback = std::function<void(std::exception_ptr)>;

  // A fake queue's on_complete: `queue` is its number, `task` the last task enqueued there
  // (-1: not tracked). Holds `done`, or runs it now once open (with the open() failure for
  // `queue`); stays here while `task` is the one stop_in() named.
  void hold(int queue, int task, Callback done) {
    std::unique_lock lock(mutex_);
    ++asked_;
    changed_.notify_all();
    if (open_) {
      const std::exception_ptr failure = queue == failing_ ? failure_ : nullptr;
      lock.unlock();
      done(failure);
      return;
    }
    held_.emplace_back(queue, std::move(done));
    if (task >= 0 && task == stop_at_) {
      stopped_ = true;
      changed_.notify_all();
      changed_.wait(lock, [&] { return stop_at_ != task || open_; });
      stopped_ = false;
    }
  }

  // Waits until `n` completions were asked for in all (so each task counted has enqueued
  // its work before). False when that never happens: a scheduler that never gets there
  // fails the test instead of hanging it (the bound is no timing: the waits end within
  // microseconds, a minute is "never").
  bool wait_for_asked(std::size_t n) { return wait([&] { return asked_ >= n; }); }
  std::size_t asked() {
    std::lock_guard lock(mutex_);
    return asked_;
  }

  // Runs the completions held so far, in the order asked for; those of queue `failing`
  // report `failure`.
  void release(int failing = -1, std::exception_ptr failure = nullptr) {
    std::vector<std::pair<int, Callback>> done;
    {
      std::lock_guard lock(mutex_);
      done.swap(held_);
    }
    for (auto& [queue, callback] : done) callback(queue == failing ? failure : nullptr);
  }

  // Stops holding: releases what is held (as release()) and runs later completions at once;
  // a thread stopped in on_complete goes on.
  void open(int failing = -1, std::exception_ptr failure = nullptr) {
    {
      std::lock_guard lock(mutex_);
      open_ = true;
      failing_ = failing;
      failure_ = failure;
      changed_.notify_all();
    }
    release(failing, failure);
  }

  // The thread that asks for the completion of `task` stays in on_complete (its completion
  // held first) until resume(); stopped_in() waits until it is there.
  void stop_in(int task) {
    std::lock_guard lock(mutex_);
    stop_at_ = task;
  }
  bool stopped_in() { return wait([&] { return stopped_; }); }
  void resume() {
    std::lock_guard lock(mutex_);
    stop_at_ = -1;
    changed_.notify_all();
  }

 private:
  template <class Predicate>
  bool wait(Predicate predicate) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::minutes(1), predicate);
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<int, Callback>> held_;  // queue number, callback
  std::size_t asked_ = 0;
  bool open_ = false;
  int failing_ = -1;
  std::exception_ptr failure_;
  int stop_at_ = -1;
  bool stopped_ = false;
};

// Opens `completions` when it goes: declared after the scheduler, it runs before the
// scheduler's destructor, which waits for every task (also when a REQUIRE ends a test).
class OpenAtExit {
 public:
  explicit OpenAtExit(HeldCompletions& completions) : completions_(completions) {}
  OpenAtExit(const OpenAtExit&) = delete;
  OpenAtExit& operator=(const OpenAtExit&) = delete;
  ~OpenAtExit() { completions_.open(); }

 private:
  HeldCompletions& completions_;
};

}  // namespace plexus::test
