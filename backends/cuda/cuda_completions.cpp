#include "cuda_completions.hpp"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "cuda_context.hpp"
#include "cuda_device.hpp"
#include "cuda_environment.hpp"
#include "plexus/cpu_pause.hpp"
#include "plexus/error.hpp"

namespace plexus::cuda {
namespace {

// The shortest time between two events of the completion thread (callbacks that arrive
// meanwhile join the next batch), so that it does not contend with the submitting thread's
// launches for the driver once per task. PLEXUS_CUDA_COMPLETION_BATCH_US overrides it.
std::chrono::microseconds batch_interval() {
  static const auto interval =
      microseconds_from_environment("PLEXUS_CUDA_COMPLETION_BATCH_US", 200);
  return interval;
}

// How long the completion thread, about to batch, watches for more work (a callback or a
// launch) before it serves what waits at once: about two submissions' worth on a GPU host
// (one costs ~4-6 us). PLEXUS_CUDA_COMPLETION_GRACE_US overrides it.
std::chrono::microseconds grace_time() {
  static const auto grace = microseconds_from_environment("PLEXUS_CUDA_COMPLETION_GRACE_US", 10);
  return grace;
}

// How the completion thread waits for a batch's event. "spin" (the driver's default, as
// cuStreamSynchronize in a plain CUDA program) wakes as the work ends but keeps a core busy
// while it runs; "block" sleeps until the driver's interrupt, some tens of microseconds
// later. PLEXUS_CUDA_COMPLETION_WAIT=spin|block; default spin (on an H100: vector add at
// 0.97x raw instead of 0.87-0.90x, and launches no slower; docs/benchmarks.md).
unsigned event_flags() {
  static const unsigned flags = [] {
    const char* value = std::getenv("PLEXUS_CUDA_COMPLETION_WAIT");
    const bool spin = !value || std::string(value) != "block";
    return CU_EVENT_DISABLE_TIMING | (spin ? 0u : unsigned{CU_EVENT_BLOCKING_SYNC});
  }();
  return flags;
}

}  // namespace

void CudaCompletions::add(Callback&& done, std::uint64_t launches) {
  bool first = false;
  {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable()) {
      try {
        thread_ = std::thread([this] { run(); });
      } catch (const std::system_error& refused) {
        throw error(error_category::resource,
                    std::string("cuda backend: the system refused the completion thread of a "
                                "queue (") + refused.what() + "): the process is at its thread limit");
      }
    }
    first = waiting_.empty();
    waiting_.push_back({std::move(done), launches});
  }
  added_.fetch_add(1, std::memory_order_relaxed);
  if (first) wake_.notify_one();  // the thread waits for a first callback, not for more
}

std::exception_ptr CudaCompletions::finish_enqueued(CUevent event) {
  const CudaDriver& driver = device_.driver();
  const char* call = "cuEventRecord";
  auto start = CudaQueueStats::clock::now();
  CUresult result = driver.event_record(event, stream_);
  if (stats_) {
    stats_->record_ns += CudaQueueStats::since(start);
    start = CudaQueueStats::clock::now();
  }
  if (result == CUDA_SUCCESS) {
    call = "an operation of the stream (cuEventSynchronize)";
    result = driver.event_synchronize(event);
    if (stats_) stats_->synchronize_ns += CudaQueueStats::since(start);
  }
  if (result == CUDA_SUCCESS) return nullptr;
  return std::make_exception_ptr(
      error(error_category::device,
            "CUDA device '" + device_.info().name + "': " + driver.describe_failure(call, result)));
}

void CudaCompletions::run() {
  const CudaDriver& driver = device_.driver();
  std::unique_ptr<ScopedContext> scope;  // current for the thread's life
  CUevent event = nullptr;               // recorded again for every batch
  std::exception_ptr no_event;
  try {
    scope = std::make_unique<ScopedContext>(driver, device_.context());
    driver.check("cuEventCreate", driver.event_create(&event, event_flags()));
  } catch (...) {
    no_event = std::current_exception();
  }
  std::vector<Waiting> batch;
  std::chrono::steady_clock::time_point last_event{};
  bool busy_while_waiting = false;  // more work came while the last batch's event was awaited
  for (;;) {
    batch.clear();
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      if (waiting_.empty()) break;  // stopping, nothing left
      // A callback after a quiet spell is served at once; a stream of them, while launches
      // stream too, in batches. Not a callback the submitting thread stopped after and
      // likely waits for (launch, wait, launch, wait must not wait out the interval each
      // time): nothing came while the last event was awaited, or nothing comes within the
      // grace time.
      const auto due = last_event + batch_interval();
      if (busy_while_waiting && launcher_.streaming() &&
          std::chrono::steady_clock::now() < due) {
        const std::uint64_t seen = activity();
        lock.unlock();
        const bool more =
            spin_for(grace_time(), Spin::yielding, [&] { return activity() != seen; });
        lock.lock();
        if (more) wake_.wait_until(lock, due, [this] { return stopping_; });
      }
      batch.swap(waiting_);  // waiting_ keeps the old batch's capacity
    }
    last_event = std::chrono::steady_clock::now();
    launcher_.wait_issued(batch.back().launches);  // the event goes after those launches
    const std::uint64_t before_event = activity();
    const std::exception_ptr failure = no_event ? no_event : finish_enqueued(event);
    busy_while_waiting = activity() != before_event;  // before the callbacks run
    const auto start = CudaQueueStats::clock::now();
    const auto tasks = static_cast<std::int64_t>(batch.size());
    finish(batch, failure);
    if (stats_) {
      stats_->callback_ns += CudaQueueStats::since(start);
      stats_->batches += 1;
      stats_->batch_tasks += tasks;
    }
  }
  if (event) driver.event_destroy(event);
}

void CudaCompletions::finish(std::vector<Waiting>& batch, const std::exception_ptr& failure) {
  const std::vector<CudaLauncher::Failure> refused =
      launcher_.take_failures(reported_launches_, batch.back().launches);
  auto next_refused = refused.begin();
  for (Waiting& waiting : batch) {
    std::exception_ptr own = failure;
    if (next_refused != refused.end() && next_refused->number <= waiting.launches) {
      own = next_refused->error;
      while (next_refused != refused.end() && next_refused->number <= waiting.launches)
        ++next_refused;
    }
    waiting.done(own);
  }
  reported_launches_ = batch.back().launches;
  batch.clear();  // the callbacks' captures go here, still on this thread
}

void CudaCompletions::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

}  // namespace plexus::cuda
