// CudaQueueStats: where a CudaQueue's host time goes, for benchmarks. Off unless the
// environment has PLEXUS_BENCH_BREAKDOWN=1 (read once per process); a queue without stats
// pays one null-pointer branch per operation. With it on, the queue's destructor prints one
// line to stderr: launches, time in launch() and in cuLaunchKernel, time in on_complete(),
// and the completion thread's batches, event record/synchronize and callback times.
//
// Thread-safety: the submitting thread writes launches, launch_ns, completions and
// on_complete_ns; driver_launch_ns (and thread_launches) whichever thread issues the launch (the submitting one or
// the launch thread, never both at once); the completion thread the batch fields; print()
// after all are done (in the queue's destructor).
// Ownership: owned by its queue.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace plexus::cuda {

struct CudaQueueStats {
  using clock = std::chrono::steady_clock;

  // A new CudaQueueStats when PLEXUS_BENCH_BREAKDOWN=1, else nullptr.
  static std::unique_ptr<CudaQueueStats> if_enabled();
  static std::int64_t since(clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - start).count();
  }
  // "cuda queue on <device>: ..." to stderr.
  void print(const std::string& device) const;

  std::int64_t launches = 0, launch_ns = 0, driver_launch_ns = 0;
  std::int64_t thread_launches = 0;  // of launches, those issued by the launch thread
  std::int64_t completions = 0, on_complete_ns = 0;
  std::int64_t batches = 0, batch_tasks = 0, record_ns = 0, synchronize_ns = 0, callback_ns = 0;
};

}  // namespace plexus::cuda
