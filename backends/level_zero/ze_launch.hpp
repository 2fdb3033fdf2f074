// prepare_launch: one kernel launch made ready to append to a command list (an immediate
// one for DeviceQueue::launch, a regular one for a graph). It checks the launch as every
// backend does (the kernel's device, plexus::validate_launch), takes the kernel's lock and
// sets the kernel object's state: the group size (the range's local size, else
// zeKernelSuggestGroupSize's), the global offset (zeKernelSetGlobalOffsetExp; a non-zero
// offset without it is plexus::error(unsupported)) and every argument (allocations and USM
// pass their address, scalars their bytes, __local arguments their size). The caller appends
// the launch with `groups` while holding `lock`, which keeps other threads from changing
// the kernel's state before the append has taken it.
// Thread-safety: any thread; kernels are serialised by their locks.
#pragma once

#include <level_zero/ze_api.h>

#include <mutex>
#include <span>

#include "plexus/device_module.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::level_zero {

class ZeDevice;
class ZeKernel;

struct PreparedLaunch {
  const ZeKernel* kernel = nullptr;
  ze_group_count_t groups{};
  std::unique_lock<std::mutex> lock;
};

// Throws invalid_argument naming the launch on `device` (a refused group size included).
PreparedLaunch prepare_launch(const ZeDevice& device, const DeviceKernel& kernel,
                              const NdRange& range, std::span<const KernelArgument> arguments);

}  // namespace plexus::level_zero
