// HipLaunchPlan: one kernel launch as the HIP runtime takes it (hipModuleLaunchKernel, a
// kernel node of a HIP graph): the function, grid, block and dynamic LDS bytes, and the
// parameter array. plan_launch() checks the launch as HipQueue documents (the kernel's
// device, validate_launch, no global offset, the block size) and lays it out with
// plexus::kernel_parameters (__local arguments after the kernel's static LDS).
// Not copyable or movable (the parameter array points into it). Thread-safety: one plan per
// thread.
#pragma once

#include <hip/hip_runtime_api.h>

#include <array>
#include <span>
#include <string>

#include "plexus/device_module.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/kernel_parameters.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::hip {

class HipDevice;

struct HipLaunchPlan {
  hipFunction_t function = nullptr;
  std::array<unsigned, 3> grid{1, 1, 1}, block{1, 1, 1};
  unsigned dynamic_lds = 0;
  KernelParameterArray parameters;
};

// "launch of '<kernel>' on HIP device '<device>'", for errors.
std::string launch_name(const HipDevice& device, const DeviceKernel& kernel);

// Throws invalid_argument (or unsupported: a global offset) naming the launch on `device`.
void plan_launch(const HipDevice& device, const DeviceKernel& kernel, const NdRange& range,
                 std::span<const KernelArgument> arguments, HipLaunchPlan& plan);

}  // namespace plexus::hip
