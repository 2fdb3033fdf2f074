// LaunchPlan: one kernel launch as the driver takes it (cuLaunchKernel, a kernel node of a
// CUDA graph): the function, grid, block and dynamic shared bytes, and a pointer to each
// parameter's value. plan_launch() checks the launch as CudaQueue::launch documents
// (the kernel's device, validate_launch, no global offset, the block size) and lays it out:
// allocations pass their CUdeviceptr, scalars their bytes (pointed to, not copied), __local
// arguments consecutive 16-byte-aligned parts of the dynamic shared memory.
// Not copyable or movable (the parameter array points into the plan); the usual few arguments need no
// allocation. Thread-safety: one plan per thread.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cuda_launcher.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/kernel_parameters.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::cuda {

class CudaDevice;

struct LaunchPlan {
  LaunchPlan() = default;
  LaunchPlan(const LaunchPlan&) = delete;
  LaunchPlan& operator=(const LaunchPlan&) = delete;

  CudaLauncher::Launch launch;
  KernelParameterArray parameters;  // parameters.params(): the driver's parameter array
};

// Throws invalid_argument (or unsupported: a global offset) naming the launch on `device`.
void plan_launch(CudaDevice& device, const DeviceKernel& kernel, const NdRange& range,
                 std::span<const KernelArgument> arguments, LaunchPlan& plan);

}  // namespace plexus::cuda
