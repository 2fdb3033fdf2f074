// NdRange: the index space of one kernel launch, OpenCL style. Plain data.
// `dimensions` (1-3) counts the used dimensions; unused ones have global = local = 1 and
// offset 0. local {0, 0, 0} lets the backend pick the work-group size; otherwise every
// global[d] must be a multiple of local[d].
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "plexus/export.hpp"

namespace plexus {

struct NdRange {
  std::size_t dimensions = 1;
  std::array<std::size_t, 3> global{1, 1, 1};
  std::array<std::size_t, 3> local{0, 0, 0};   // work-group size; zeros: backend's choice
  std::array<std::size_t, 3> offset{0, 0, 0};  // global offset

  bool has_local_size() const { return local[0] != 0; }
  std::size_t global_count() const { return global[0] * global[1] * global[2]; }
};

// Throws plexus::error(invalid_argument) naming what is wrong: dimensions outside 1-3, a
// zero global size, a local size with zeros in used dimensions, a global size that is not a
// multiple of the local size, unused dimensions that are not 1. `what` names the launch.
PLEXUS_API void validate(const NdRange& range, const std::string& what);
// The same with `what()` called only to name a failure, so that a valid range builds no
// string (the per-launch path).
template <class What>
  requires std::is_invocable_r_v<std::string, const What&>
void validate(const NdRange& range, const What& what) {
  try {
    validate(range, std::string());
  } catch (...) {
    validate(range, what());  // the same failure, named
    throw;
  }
}

}  // namespace plexus
