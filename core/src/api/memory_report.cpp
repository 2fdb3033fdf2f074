#include "memory_report.hpp"

#include <spdlog/fmt/fmt.h>

#include "plexus/device.hpp"
#include "runtime_state.hpp"

namespace plexus::detail {

namespace {
std::string location_name(LocationId location, const RuntimeState& runtime) {
  if (location == host_location) return "host";
  Device* device = runtime.device_at(location);
  return fmt::format("{} ({})", location, device ? device->info().name : "?");
}
}  // namespace

std::string describe(const MemoryStats& stats, const RuntimeState& runtime) {
  std::string text = fmt::format(
      "{} accesses, {} dependencies, {} allocations ({} bytes), {} copies ({} bytes)",
      stats.accesses, stats.dependencies, stats.allocations, stats.allocated_bytes,
      stats.copies(), stats.bytes());
  for (const auto& counter : stats.transfers) {
    text += fmt::format("; {} -> {}: {} copies, {} bytes", location_name(counter.from, runtime),
                        location_name(counter.to, runtime), counter.copies, counter.bytes);
  }
  const DeviceCopyStats& between = stats.device_copies;
  if (between.direct_copies + between.staged_copies > 0)
    text += fmt::format(
        "; device -> device: {} direct ({} bytes), {} staged through the host ({} bytes, {} of "
        "them through page-locked memory)",
        between.direct_copies, between.direct_bytes, between.staged_copies, between.staged_bytes,
        between.pinned_staged_bytes);
  if (stats.usm.allocations > 0)
    text += fmt::format("; USM: {} allocations ({} bytes), {} live ({} bytes)",
                        stats.usm.allocations, stats.usm.allocated_bytes,
                        stats.usm.live_allocations, stats.usm.live_bytes);
  return text;
}

}  // namespace plexus::detail
