#include "worker_queue.hpp"

#include <chrono>

#include "../engine.hpp"

namespace plexus::mpi {

namespace {
constexpr std::chrono::microseconds idle_spin{200};
// Control messages a queue thread takes in before it reports itself idle, within a stream.
constexpr int report_poll_messages = 16;
// An operation that arrives within this of its queue's falling idle came in a stream (the next
// of a lone copy + wait arrives a round trip later, over 3 us even with a core per process).
constexpr std::chrono::microseconds stream_gap{2};
}  // namespace

WorkerQueue::WorkerQueue(Device& device, std::uint32_t index, Engine& engine, Report report)
    : device_(device), index_(index), engine_(engine), local_(device.create_queue()),
      report_(std::move(report)) {
  thread_ = std::thread([this] { run(); });
}

WorkerQueue::~WorkerQueue() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
  try {
    local_->wait();
  } catch (...) {
    // Nobody is left to report it to.
  }
}

bool WorkerQueue::accept(std::uint64_t seq) {
  if (seq != received_ + 1) return false;
  received_ = seq;
  return true;
}

void WorkerQueue::enqueue(Operation operation, std::uint64_t seq, bool reads_only) {
  {
    std::lock_guard lock(mutex_);
    operations_.push_back({std::move(operation), seq, reads_only});
    queued_.fetch_add(1, std::memory_order_release);
  }
  cv_.notify_one();
}

bool WorkerQueue::idle() {
  std::lock_guard lock(mutex_);
  return operations_.empty() && !running_ && sends_.load(std::memory_order_acquire) == 0;
}

void WorkerQueue::await_sends() {
  if (sends_.load(std::memory_order_acquire) == 0) return;
  // Driving until they have gone (a send whose peer fails ends too: fail_peer ends it); a
  // pause between tries where nothing progressed (the owner may be driving instead).
  const auto gone = [&] { return sends_.load(std::memory_order_acquire) == 0; };
  while (!engine_.drive_until(gone, idle_spin)) std::this_thread::sleep_for(idle_spin / 2);
}

void WorkerQueue::run() {
  // Whether the operation running came in a stream: while the one before ran, or within
  // stream_gap of the queue's falling idle (back to back with it, not a round trip later).
  bool streaming = false;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (operations_.empty() && !stop_) {
      // Work follows work (a launch, then its notify): drive the engine a little before
      // sleeping, receiving the next operation here (a wake-up would add to each remote
      // round trip).
      lock.unlock();
      const auto start = std::chrono::steady_clock::now();
      const bool came = engine_.drive_until(
          [&] { return queued_.load(std::memory_order_acquire) > 0; }, idle_spin, true);
      streaming = came && std::chrono::steady_clock::now() - start < stream_gap;
      lock.lock();
    } else {
      streaming = true;  // it came while the one before ran
    }
    cv_.wait(lock, [&] { return stop_ || !operations_.empty(); });
    if (operations_.empty()) {
      lock.unlock();
      await_sends();  // from memory that may go with the queue
      return;
    }
    auto [operation, seq, reads_only] = std::move(operations_.front());
    operations_.pop_front();
    queued_.fetch_sub(1, std::memory_order_relaxed);
    running_ = true;
    lock.unlock();
    if (!reads_only) await_sends();
    Context context{*local_, failure_, reported_, sends_};
    try {
      operation(context);
    } catch (...) {
      if (!failure_) failure_ = std::current_exception();
    }
    if (seq) finished_ = seq;
    // Fallen idle after operations rank 0 has not heard the end of: tell it (wait() there
    // returns on that, without a request of its own), unless, within a stream, the next
    // operation's message has arrived meanwhile (taken in here: the stream goes on, its end
    // reports it). Only within a stream: a poll that finds nothing costs a lone operation a
    // yield of its core (Open MPI yields in every idle progress call when oversubscribed),
    // a whole time slice when a polling peer shares the core.
    if (streaming && report_ && finished_ > reported_ &&
        queued_.load(std::memory_order_acquire) == 0)
      engine_.poll(report_poll_messages);
    if (report_ && finished_ > reported_ && queued_.load(std::memory_order_acquire) == 0) {
      try {
        report_(context, finished_);
      } catch (...) {
        if (!failure_) failure_ = std::current_exception();
      }
    }
    lock.lock();
    running_ = false;
  }
}

}  // namespace plexus::mpi
