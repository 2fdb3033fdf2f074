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
  return text;
}

}  // namespace plexus::detail
