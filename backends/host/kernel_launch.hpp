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

#include <span>

#include "plexus/kernel_argument.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::host {

class HostDevice;
class HostKernel;

void run_kernel(HostDevice& device, const HostKernel& kernel, const NdRange& range,
                std::span<const KernelArgument> arguments);

// The work-group size the host picks when a range gives none: one that divides the global
// size in every dimension: up to 1024 work-items without barriers (dimension 0 first, then
// dimension 1 when dimension 0 is short), up to 256 with them (64 in dimension 0).
NdRange with_local_size(const NdRange& range, bool uses_barriers, std::size_t max_group);

}  // namespace plexus::host
