// kernel_parameters: a launch's arguments as the parameter array of a driver that takes one
// pointer per kernel parameter (CUDA's cuLaunchKernel and graph kernel nodes, HIP's
// hipModuleLaunchKernel): allocations and USM pass their address (held in `words`), scalars
// point at their bytes, and __local arguments get consecutive 16-byte-aligned parts of the
// launch's dynamic shared memory, each passed as its shared-memory address (in `words`):
// local_base() (called once, at the first __local argument) plus the part's offset.
// Pure function over the caller's storage: thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "plexus/export.hpp"
#include "plexus/kernel_argument.hpp"

namespace plexus {

// `words` and `params` hold arguments.size() entries each; params[i] points into `words` or
// at argument i's value (valid as long as both). Returns the dynamic shared memory bytes the
// __local arguments take (0 without any).
PLEXUS_API std::size_t kernel_parameters(std::span<const KernelArgument> arguments,
                                         const std::function<std::uint64_t()>& local_base,
                                         std::uint64_t* words, void** params);

// `value` rounded up to a multiple of `alignment` (> 0).
inline std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace plexus
