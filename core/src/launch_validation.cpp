#include "plexus/launch_validation.hpp"

#include <algorithm>

#include "plexus/error.hpp"

namespace plexus {
namespace {

const char* parameter_text(KernelArgKind kind) {
  switch (kind) {
    case KernelArgKind::global_pointer:
      return "a __global pointer";
    case KernelArgKind::constant_pointer:
      return "a __constant pointer";
    case KernelArgKind::local_pointer:
      return "a __local pointer";
    case KernelArgKind::scalar:
      return "a value";
    case KernelArgKind::sampler:
      return "a sampler";
    case KernelArgKind::image:
      return "an image";
  }
  return "an unknown parameter";
}

const char* argument_text(KernelArgumentKind kind) {
  switch (kind) {
    case KernelArgumentKind::allocation:
      return "an allocation";
    case KernelArgumentKind::scalar:
      return "a scalar";
    case KernelArgumentKind::local:
      return "local memory";
  }
  return "an unknown argument kind";
}

KernelArgumentKind expected_kind(KernelArgKind kind) {
  switch (kind) {
    case KernelArgKind::global_pointer:
    case KernelArgKind::constant_pointer:
      return KernelArgumentKind::allocation;
    case KernelArgKind::local_pointer:
      return KernelArgumentKind::local;
    default:
      return KernelArgumentKind::scalar;
  }
}

// The checks; `what()` names the launch and is called only to describe a failure, so that a
// valid launch builds no strings.
template <class What>
void check_launch(const KernelInfo& kernel, const NdRange& range,
                  std::span<const KernelArgument> arguments, const What& what) {
  validate(range, what);
  const auto& required = kernel.required_work_group_size;
  if (required[0] != 0 && range.has_local_size()) {
    for (std::size_t d = 0; d < 3; ++d) {
      const std::size_t local = d < range.dimensions ? range.local[d] : 1;
      if (local != required[d])
        throw error(error_category::invalid_argument,
                    what() + ": kernel '" + kernel.name + "' requires the work-group size {" +
                        std::to_string(required[0]) + ", " + std::to_string(required[1]) + ", " +
                        std::to_string(required[2]) +
                        "} (reqd_work_group_size); give the range "
                        "that local size");
    }
  }
  if (arguments.size() != kernel.args.size())
    throw error(error_category::invalid_argument, what() + ": kernel '" + kernel.name + "' takes " +
                                                      std::to_string(kernel.args.size()) +
                                                      " argument(s), " +
                                                      std::to_string(arguments.size()) + " given");
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgInfo& parameter = kernel.args[i];
    const KernelArgument& argument = arguments[i];
    const auto where = [&] {
      return what() + ": argument " + std::to_string(i) + " ('" + parameter.name +
             "') of kernel '" + kernel.name + "'";
    };
    if (parameter.kind == KernelArgKind::sampler || parameter.kind == KernelArgKind::image)
      throw error(error_category::unsupported, where() + " is " + parameter_text(parameter.kind) +
                                                   ": samplers and images are not supported");
    if (argument.kind != expected_kind(parameter.kind))
      throw error(error_category::invalid_argument,
                  where() + " is " + parameter_text(parameter.kind) + " but " +
                      argument_text(argument.kind) + " was given (pass " +
                      argument_text(expected_kind(parameter.kind)) + ")");
    switch (argument.kind) {
      case KernelArgumentKind::allocation:
        if (!argument.allocation)
          throw error(error_category::invalid_argument, where() + ": the allocation is null");
        break;
      case KernelArgumentKind::local:
        if (argument.size == 0)
          throw error(error_category::invalid_argument,
                      where() + ": local memory of 0 bytes; give the bytes to reserve");
        break;
      case KernelArgumentKind::scalar:
        if (argument.size != parameter.size)
          throw error(error_category::invalid_argument,
                      where() + " is " + std::to_string(parameter.size) + " byte(s), " +
                          std::to_string(argument.size) + " given");
        if (!argument.value)
          throw error(error_category::invalid_argument, where() + ": the value pointer is null");
        break;
    }
  }
}

}  // namespace

void validate_launch(const KernelInfo& kernel, const NdRange& range,
                     std::span<const KernelArgument> arguments, const std::string& what) {
  check_launch(kernel, range, arguments, [&] { return what; });
}

void validate_launch(const KernelInfo& kernel, const NdRange& range,
                     std::span<const KernelArgument> arguments,
                     const std::function<std::string()>& what) {
  check_launch(kernel, range, arguments, what);
}

std::size_t largest_divisor_at_most(std::size_t n, std::size_t limit) {
  for (std::size_t d = std::min(n, std::max<std::size_t>(limit, 1)); d > 1; --d)
    if (n % d == 0) return d;
  return 1;
}

std::array<std::size_t, 3> work_group_for(const NdRange& range, std::size_t preferred,
                                          std::size_t kernel_limit,
                                          const std::function<std::string()>& what) {
  std::array<std::size_t, 3> group{1, 1, 1};
  if (range.has_local_size())
    group = range.local;
  else
    group[0] = largest_divisor_at_most(range.global[0], std::min(preferred, kernel_limit));
  const std::size_t items = group[0] * group[1] * group[2];
  if (items > kernel_limit)
    throw error(error_category::invalid_argument,
                what() + ": a work-group of " + std::to_string(items) +
                    " work-items exceeds the kernel's limit of " + std::to_string(kernel_limit));
  return group;
}

}  // namespace plexus
