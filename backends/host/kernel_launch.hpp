// run_kernel: one kernel launch on a host device, start to end. Validates the launch
// (plexus::validate_launch), picks a work-group size when the range has none, lays out
// the local block (the kernel's __local variables, then each __local argument), and runs
// the work-groups on the device's thread pool, the calling thread included; returns when
// every work-group has finished.
//
// Errors: plexus::error(invalid_argument) for a bad launch (before anything runs),
// plexus::error(device) for a failure while running (e.g. barriers in divergent code).
// Thread-safety: safe from any thread; launches of one kernel may run concurrently.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "device_library/work_item_state.h"
#include "plexus/kernel_argument.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::host {

class HostDevice;
class HostKernel;

// Storage aligned for any OpenCL type (a double16 is 128 bytes).
struct alignas(128) Chunk {
  std::byte bytes[128];
};

// The arguments as the JIT entry reads them: one slot per parameter pointing at its value
// (a copy of the scalar, the allocation's address, or the __local argument's offset), each
// value in whole Chunks. Slots, capacities and values share one plain allocation per launch,
// aligned by hand (an aligned allocation per value cost more than the rest of an empty
// kernel's launch). Moving it keeps the slots valid (the values stay where they are).
class ArgumentBlock {
 public:
  ArgumentBlock(std::span<const KernelArgument> arguments, std::size_t static_local_bytes);
  // New values for the scalars and allocations (the same kinds and sizes as constructed).
  void update(std::span<const KernelArgument> arguments);

  void* const* slots() const { return slots_; }
  std::size_t size() const { return count_; }
  std::size_t capacity(std::size_t slot) const { return capacities_[slot]; }  // its bytes
  std::size_t local_bytes() const { return local_bytes_; }  // variables, then arguments

 private:
  std::unique_ptr<std::byte[]> storage_;  // slots, capacities, then the values
  void** slots_ = nullptr;
  std::size_t* capacities_ = nullptr;
  std::size_t count_ = 0;
  std::size_t local_bytes_ = 0;
};

// A launch validated and laid out (run_kernel's first half), to run any number of times.
struct PreparedLaunch {
  const HostKernel* kernel = nullptr;
  plexus_work_item_state shape{};
  std::size_t groups = 1;
  ArgumentBlock block;
};

// Errors as run_kernel's found before anything runs (invalid_argument).
PreparedLaunch prepare_launch(HostDevice& device, const HostKernel& kernel, const NdRange& range,
                              std::span<const KernelArgument> arguments);
// Runs the work-groups of `prepared` (its block's current values); errors as run_kernel's
// while running.
void run_prepared(HostDevice& device, const PreparedLaunch& prepared);

void run_kernel(HostDevice& device, const HostKernel& kernel, const NdRange& range,
                std::span<const KernelArgument> arguments);

// The work-group size the host picks when a range gives none: one that divides the global
// size in every dimension: up to 1024 work-items without barriers (dimension 0 first, then
// dimension 1 when dimension 0 is short), up to 256 with them (64 in dimension 0).
NdRange with_local_size(const NdRange& range, bool uses_barriers, std::size_t max_group);

}  // namespace plexus::host
