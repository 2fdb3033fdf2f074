// validate_launch: the checks every backend makes before launching a kernel, so that a bad
// launch fails the same way (and with the same words) on every device.
// Pure function over plain data: thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "plexus/export.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/kernel_info.hpp"
#include "plexus/nd_range.hpp"

namespace plexus {

// Throws plexus::error(invalid_argument) naming `what` (e.g. "launch of 'vadd' on <device>"),
// the kernel and the argument (index and name) when: the range is invalid (plexus::validate),
// the range gives a work-group size other than the one the kernel requires, the argument count
// differs from the kernel's, an argument's kind does not suit the parameter (allocation for
// __global/__constant pointers, local for __local pointers, scalar for values), a scalar's
// size differs from the parameter's, an allocation is null, or a local size is zero.
// Sampler and image parameters are refused as plexus::error(unsupported).
PLEXUS_API void validate_launch(const KernelInfo& kernel, const NdRange& range,
                                std::span<const KernelArgument> arguments, const std::string& what);
// The same, with `what` built only when a check fails (a valid launch builds no strings:
// for a backend's per-launch path).
PLEXUS_API void validate_launch(const KernelInfo& kernel, const NdRange& range,
                                std::span<const KernelArgument> arguments,
                                const std::function<std::string()>& what);

// The largest divisor of `n` that is at most `limit` (1 when none above 1 is): a work-group
// size that divides a global size, for a backend that picks one (n and limit of 0 give 1).
PLEXUS_API std::size_t largest_divisor_at_most(std::size_t n, std::size_t limit);

// The work-group size of a launch on a backend that picks one when the range has none (CUDA,
// HIP): the range's local size, else the largest divisor of global[0] up to
// min(preferred, kernel_limit) with the other dimensions 1. Throws
// plexus::error(invalid_argument) "<what()>: a work-group of N work-items exceeds the
// kernel's limit of M" when it has more than `kernel_limit` work-items (what() is called
// only then).
PLEXUS_API std::array<std::size_t, 3> work_group_for(const NdRange& range, std::size_t preferred,
                                                     std::size_t kernel_limit,
                                                     const std::function<std::string()>& what);

}  // namespace plexus
