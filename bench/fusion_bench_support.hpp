// Shared by the fusion benchmarks (plexus-bench-fusion on the host device,
// plexus-bench-fusion-cuda): 1D ranges and a compiled kernel's info by name. Pure functions.
#pragma once

#include <cstddef>
#include <string>

#include "plexus/compiler.hpp"
#include "plexus/error.hpp"
#include "plexus/nd_range.hpp"

namespace bench {

// `global` work-items in 1D, in work-groups of `local` (0: the device chooses).
inline plexus::NdRange range1(std::size_t global, std::size_t local = 0) {
  plexus::NdRange range;
  range.global = {global, 1, 1};
  if (local) range.local = {local, 1, 1};
  return range;
}

// The info of kernel `name` in `compiled`; plexus::error(internal) when there is none.
inline const plexus::KernelInfo& kernel_info(const plexus::CompileResult& compiled,
                                             const std::string& name) {
  for (const auto& kernel : compiled.kernels)
    if (kernel.name == name) return kernel;
  throw plexus::error(plexus::error_category::internal, "no kernel " + name);
}

}  // namespace bench
