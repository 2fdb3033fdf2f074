#include "hip_launch_plan.hpp"

#include "hip_device.hpp"
#include "hip_module.hpp"
#include "plexus/error.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::hip {
namespace {
constexpr std::size_t default_block = 256;
constexpr std::size_t local_alignment = 16;
}  // namespace

std::string launch_name(const HipDevice& device, const DeviceKernel& kernel) {
  return "launch of '" + kernel.info().name + "' on HIP device '" + device.info().name + "'";
}

void plan_launch(const HipDevice& device, const DeviceKernel& kernel, const NdRange& range,
                 std::span<const KernelArgument> arguments, HipLaunchPlan& plan) {
  const auto what = [&] { return launch_name(device, kernel); };
  const auto* loaded = dynamic_cast<const HipKernel*>(&kernel);
  if (!loaded || &loaded->device() != &device)
    throw error(error_category::invalid_argument,
                what() + ": the kernel was loaded for another device; load its module on this one");
  validate_launch(loaded->info(), range, arguments, what);
  if (range.offset != std::array<std::size_t, 3>{0, 0, 0})
    throw error(error_category::unsupported,
                what() + ": the hip backend cannot apply a global offset (a HIP launch passes "
                         "0 for the kernel's hidden offsets); launch with offset 0 and add it in "
                         "the kernel");
  const std::array<std::size_t, 3> block =
      work_group_for(range, default_block, loaded->max_threads(), what);
  plan.dynamic_lds = static_cast<unsigned>(plan.parameters.lay_out(
      arguments, [&] { return align_up(loaded->static_shared_bytes(), local_alignment); }));
  plan.function = loaded->handle();
  for (std::size_t d = 0; d < 3; ++d) {
    plan.block[d] = static_cast<unsigned>(block[d]);
    plan.grid[d] = static_cast<unsigned>(range.global[d] / block[d]);
  }
}

}  // namespace plexus::hip
