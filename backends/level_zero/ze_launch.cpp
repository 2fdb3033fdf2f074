#include "ze_launch.hpp"

#include <array>
#include <limits>
#include <string>

#include "plexus/error.hpp"
#include "plexus/launch_validation.hpp"
#include "ze_device.hpp"
#include "ze_module.hpp"

namespace plexus::level_zero {

PreparedLaunch prepare_launch(const ZeDevice& device, const DeviceKernel& kernel,
                              const NdRange& range, std::span<const KernelArgument> arguments) {
  const auto what = [&] {
    return "launch of '" + kernel.info().name + "' on Level Zero device '" + device.info().name +
           "'";
  };
  const auto* loaded = dynamic_cast<const ZeKernel*>(&kernel);
  if (!loaded || &loaded->device() != &device)
    throw error(error_category::invalid_argument,
                what() + ": the kernel was loaded for another device; load its module on this one");
  validate_launch(loaded->info(), range, arguments, what);
  const ZeLoader& loader = device.loader();
  const bool offset = range.offset != std::array<std::size_t, 3>{0, 0, 0};
  if (offset && !loader.kernel_set_global_offset)
    throw error(error_category::unsupported,
                what() + ": a global offset needs zeKernelSetGlobalOffsetExp, which this loader "
                         "lacks; launch with offset 0 and add it in the kernel");
  for (std::size_t d = 0; d < 3; ++d)
    if (range.global[d] > std::numeric_limits<std::uint32_t>::max() ||
        range.offset[d] > std::numeric_limits<std::uint32_t>::max())
      throw error(error_category::invalid_argument,
                  what() + ": a global size or offset above 2^32-1 in dimension " +
                      std::to_string(d));

  PreparedLaunch prepared{loaded, {}, loaded->lock()};
  const ze_kernel_handle_t handle = loaded->handle();
  const auto refused = [&](const char* call, ze_result_t result) {
    const bool bad = result == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION ||
                     result == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE ||
                     result == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX ||
                     result == ZE_RESULT_ERROR_INVALID_ARGUMENT;
    throw error(bad ? error_category::invalid_argument : error_category::device,
                what() + ": " + ZeLoader::describe_failure(call, result));
  };
  std::array<std::uint32_t, 3> group{1, 1, 1};
  const auto global = [&](std::size_t d) { return static_cast<std::uint32_t>(range.global[d]); };
  if (range.has_local_size()) {
    for (std::size_t d = 0; d < 3; ++d) group[d] = static_cast<std::uint32_t>(range.local[d]);
  } else if (const ze_result_t result = loader.kernel_suggest_group_size(
                 handle, global(0), global(1), global(2), &group[0], &group[1], &group[2]);
             result != ZE_RESULT_SUCCESS) {
    refused("zeKernelSuggestGroupSize", result);
  }
  if (const ze_result_t result = loader.kernel_set_group_size(handle, group[0], group[1], group[2]);
      result != ZE_RESULT_SUCCESS)
    refused("zeKernelSetGroupSize", result);
  // The offset is state of the kernel object: set on every launch where it can be, so that
  // an earlier launch's offset does not stay.
  if (loader.kernel_set_global_offset)
    if (const ze_result_t result = loader.kernel_set_global_offset(
            handle, static_cast<std::uint32_t>(range.offset[0]),
            static_cast<std::uint32_t>(range.offset[1]), static_cast<std::uint32_t>(range.offset[2]));
        result != ZE_RESULT_SUCCESS && offset)
      refused("zeKernelSetGlobalOffsetExp", result);
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgument& argument = arguments[i];
    const auto index = static_cast<std::uint32_t>(i);
    ze_result_t result = ZE_RESULT_SUCCESS;
    switch (argument.kind) {
      case KernelArgumentKind::allocation:
        result = loader.kernel_set_argument_value(handle, index, sizeof(void*), &argument.allocation);
        break;
      case KernelArgumentKind::scalar:
        result = loader.kernel_set_argument_value(handle, index, argument.size, argument.value);
        break;
      case KernelArgumentKind::local:
        result = loader.kernel_set_argument_value(handle, index, argument.size, nullptr);
        break;
    }
    if (result != ZE_RESULT_SUCCESS)
      refused(("zeKernelSetArgumentValue(" + std::to_string(i) + ")").c_str(), result);
  }
  prepared.groups = {global(0) / group[0], global(1) / group[1], global(2) / group[2]};
  return prepared;
}

}  // namespace plexus::level_zero
