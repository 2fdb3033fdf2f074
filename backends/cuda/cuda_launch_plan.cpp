#include "cuda_launch_plan.hpp"

#include <algorithm>
#include <string>

#include "cuda_device.hpp"
#include "cuda_module.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_parameters.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::cuda {
namespace {

constexpr std::size_t default_block = 256;
constexpr std::size_t local_alignment = 16;

}  // namespace

void plan_launch(CudaDevice& device, const DeviceKernel& kernel, const NdRange& range,
                 std::span<const KernelArgument> arguments, LaunchPlan& plan) {
  // Names the launch in errors; built only for one (a launch's path allocates nothing).
  const auto what = [&] { return "launch of '" + kernel.info().name + "'"; };
  const auto on_device = [&] { return "CUDA device '" + device.info().name + "': " + what(); };
  const auto* loaded = dynamic_cast<const CudaKernel*>(&kernel);
  if (!loaded || &loaded->device() != &device)
    throw error(
        error_category::invalid_argument,
        on_device() + ": the kernel was loaded for another device; load its module on this one");
  validate_launch(loaded->info(), range, arguments,
                  [&] { return what() + " on CUDA device '" + device.info().name + "'"; });
  if (range.offset != std::array<std::size_t, 3>{0, 0, 0})
    throw error(error_category::unsupported,
                on_device() +
                    ": the cuda backend cannot apply a global offset (PTX compiled with "
                    "libclc reads none); launch with offset 0 and add it in the kernel");

  const std::array<std::size_t, 3> block =
      work_group_for(range, default_block, loaded->max_threads(), on_device);

  const std::size_t dynamic_shared = plan.parameters.lay_out(
      arguments,
      [&] {
        return device.dynamic_shared_base() +
               align_up(loaded->static_shared_bytes(), local_alignment);
      });
  auto count = [&](std::size_t d) { return static_cast<unsigned>(range.global[d] / block[d]); };
  plan.launch = CudaLauncher::Launch{
      loaded->handle(),
      &kernel,
      {count(0), count(1), count(2)},
      {static_cast<unsigned>(block[0]), static_cast<unsigned>(block[1]),
       static_cast<unsigned>(block[2])},
      static_cast<unsigned>(dynamic_shared)};
}

}  // namespace plexus::cuda
