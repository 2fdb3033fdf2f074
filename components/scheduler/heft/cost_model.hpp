// CostModel: what scheduler/heft knows about run times. Per device (by its key, a stable
// name) the measured execution time of each kernel key (kernel name + global-size bucket,
// see kernel_key) and the measured bandwidth of the copies into the device: per source (a
// pair of locations: "host" for host memory, else the source device's key; a pair between
// two devices measures whichever path the runtime takes, direct or staged through the host)
// and over all sources; the configured default bandwidth until a copy was measured. Averages
// are running means whose weight is capped (the last ~32 samples dominate), so the model
// follows a machine that changes. A kernel's first run on a device carries one-time costs (a
// module load, a library's handles and workspace: 62 ms for a cuSOLVER potrf tile that then
// takes 1 ms): it is provisional, and the second run replaces it (counted as two samples).
//
// Thread-safety: every member may be called from any thread. Ownership: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace plexus::heft {

// "kernel gemm [16384]": the task name and the power of two at or below its work-items
// (0 for tasks without a kernel), so launches of similar size share a measurement.
std::string kernel_key(const std::string& task_name, std::size_t work_items);

struct Measurement {
  double mean = 0.0;          // seconds; bytes per second for a bandwidth
  std::uint64_t samples = 0;  // 0: none
};

// The source key of host memory in DeviceCosts::bandwidth_from.
inline constexpr const char* host_memory_key = "host";

struct DeviceCosts {
  Measurement bandwidth;                       // copies into the device, bytes per second
  std::map<std::string, Measurement> bandwidth_from;  // the same by source key
  std::map<std::string, Measurement> kernels;  // by kernel_key
};

using CostTable = std::map<std::string, DeviceCosts>;  // by device key

class CostModel {
 public:
  // Copies smaller than this are latency, not bandwidth: they do not update it.
  static constexpr std::size_t min_bandwidth_sample_bytes = 64 * 1024;

  explicit CostModel(double default_bandwidth);  // bytes per second, > 0

  std::optional<double> execution_seconds(const std::string& kernel,
                                          const std::string& device) const;
  // Measured bandwidth into `device`, else the default; bytes per second.
  double bandwidth(const std::string& device) const;
  // Measured bandwidth from `from` into `device`, else bandwidth(device); bytes per second.
  double bandwidth(const std::string& from, const std::string& device) const;

  // The measurement behind execution_seconds, in one lookup: samples 0 when none, 1 when it
  // is the provisional first run.
  Measurement execution(const std::string& kernel, const std::string& device) const;

  void record_execution(const std::string& kernel, const std::string& device, double seconds);
  void record_transfer(const std::string& device, std::size_t bytes, double seconds);
  void record_transfer(const std::string& from, const std::string& device, std::size_t bytes,
                       double seconds);

  CostTable snapshot() const;
  // Adds `table` (e.g. a history file) to what is known: its means seed the entries.
  void merge(const CostTable& table);

 private:
  mutable std::mutex mutex_;
  double default_bandwidth_;
  CostTable table_;
};

}  // namespace plexus::heft
