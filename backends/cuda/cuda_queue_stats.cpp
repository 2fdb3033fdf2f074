#include "cuda_queue_stats.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace plexus::cuda {

std::unique_ptr<CudaQueueStats> CudaQueueStats::if_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("PLEXUS_BENCH_BREAKDOWN");
    return value && std::strcmp(value, "1") == 0;
  }();
  return enabled ? std::make_unique<CudaQueueStats>() : nullptr;
}

void CudaQueueStats::print(const std::string& device) const {
  const auto per = [](std::int64_t ns, std::int64_t count) {
    return count ? static_cast<double>(ns) / 1e3 / static_cast<double>(count) : 0.0;
  };
  std::fprintf(stderr,
               "cuda queue on %s: %lld launches (%lld by the launch thread), launch() %.3f us each "
               "(cuLaunchKernel %.3f); "
               "%lld on_complete() %.3f us each; completion thread: %lld batches (%.1f tasks "
               "each), cuEventRecord %.3f us, cuEventSynchronize %.3f us, callbacks %.3f us "
               "per batch\n",
               device.c_str(), static_cast<long long>(launches),
               static_cast<long long>(thread_launches), per(launch_ns, launches),
               per(driver_launch_ns, launches), static_cast<long long>(completions),
               per(on_complete_ns, completions), static_cast<long long>(batches),
               batches ? static_cast<double>(batch_tasks) / static_cast<double>(batches) : 0.0,
               per(record_ns, batches), per(synchronize_ns, batches), per(callback_ns, batches));
}

}  // namespace plexus::cuda
