// PlacementStats: what a scheduler that chooses devices (scheduler/heft) tells tests, tools
// and traces about its choices. A scheduler may implement it besides Scheduler; callers find
// it with dynamic_cast<const PlacementStats*>(scheduler) (nullptr: the scheduler keeps none).
//
// Thread-safety: placements() may be called from any thread while tasks are submitted and
// run; it returns a consistent snapshot. Ownership: the scheduler's; valid as long as it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plexus/export.hpp"

namespace plexus {

class Device;

struct DevicePlacements {
  Device* device = nullptr;          // nullptr: the host (host tasks and host accesses)
  std::string name;                  // the device's name, "host" for nullptr
  std::uint64_t tasks = 0;           // tasks placed there since the scheduler started
  std::uint64_t by_model = 0;        // of those, placed by the cost model (not round-robin)
  std::uint64_t transfer_bytes = 0;  // bytes the memory model planned to move there
  double busy_seconds = 0.0;         // measured run time of the tasks done there
  std::uint64_t queues = 0;          // device queues the scheduler made there (streams, ...)
};

class PLEXUS_API PlacementStats {
 public:
  virtual ~PlacementStats();
  // One entry per device the scheduler may use (and the host), in device order.
  virtual std::vector<DevicePlacements> placements() const = 0;
};

}  // namespace plexus
