#include "cuda_launch_plan.hpp"

#include <algorithm>
#include <string>

#include "cuda_device.hpp"
#include "cuda_module.hpp"
#include "plexus/error.hpp"
#include "plexus/launch_validation.hpp"

namespace plexus::cuda {
namespace {

constexpr std::size_t default_block = 256;
constexpr std::size_t local_alignment = 16;

std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The largest divisor of `global` that is at most `limit`.
std::size_t block_for(std::size_t global, std::size_t limit) {
  for (std::size_t block = std::min(global, limit); block > 1; --block)
    if (global % block == 0) return block;
  return 1;
}

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

  std::array<std::size_t, 3> block{1, 1, 1};
  if (range.has_local_size()) {
    block = range.local;
  } else {
    block[0] = block_for(range.global[0], std::min(default_block, loaded->max_threads()));
  }
  const std::size_t threads = block[0] * block[1] * block[2];
  if (threads > loaded->max_threads())
    throw error(error_category::invalid_argument, on_device() + ": a work-group of " +
                                                      std::to_string(threads) +
                                                      " work-items exceeds the kernel's limit of " +
                                                      std::to_string(loaded->max_threads()));

  std::uint64_t* words = plan.inline_words.data();
  plan.params = plan.inline_params.data();
  if (arguments.size() > plan.inline_words.size()) {
    plan.heap_words.resize(arguments.size());
    plan.heap_params.resize(arguments.size());
    words = plan.heap_words.data();
    plan.params = plan.heap_params.data();
  }
  void** params = plan.params;
  std::size_t dynamic_shared = 0;
  std::uint64_t shared_base = 0;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgument& argument = arguments[i];
    switch (argument.kind) {
      case KernelArgumentKind::allocation:
        words[i] = reinterpret_cast<std::uint64_t>(argument.allocation);
        params[i] = &words[i];
        break;
      case KernelArgumentKind::scalar:
        params[i] = const_cast<void*>(argument.value);
        break;
      case KernelArgumentKind::local:
        if (shared_base == 0)
          shared_base = device.dynamic_shared_base() +
                        align_up(loaded->static_shared_bytes(), local_alignment);
        words[i] = shared_base + dynamic_shared;
        params[i] = &words[i];
        dynamic_shared += align_up(argument.size, local_alignment);
        break;
    }
  }
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
