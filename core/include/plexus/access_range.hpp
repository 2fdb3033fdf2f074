// Buffer geometry and access modes shared by the memory model and the scheduler.
// Plain data. Extents are in elements; a 1D or 2D buffer has trailing extents of 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace plexus {

using Extent3 = std::array<std::size_t, 3>;

struct AccessRange {
  Extent3 offset{0, 0, 0};
  Extent3 extent{1, 1, 1};
};

enum class AccessMode {
  read,
  write,          // writes, but the old contents of the range must be valid first
  read_write,
  discard_write,  // overwrites the whole range: never transfers (no_init)
};

constexpr bool writes(AccessMode mode) { return mode != AccessMode::read; }

}  // namespace plexus
