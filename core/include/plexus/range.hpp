// Range<Dims> and nd-range helpers of the application API (SYCL's range and nd_range).
//
//   plexus::Range r{1024};                       // 1D; Range{rows, cols} 2D; Range{a, b, c} 3D
//   plexus::NdRange nd = plexus::nd_range(Range{1024}, Range{64});   // global, work-group
//
// Plain values, thread-safe as any value. Dimension 0 is the slowest (row-major, as the
// memory model lays buffers out); a Dims-D range has trailing extents of 1 when widened.
#pragma once

#include <array>
#include <cstddef>

#include "plexus/access_range.hpp"
#include "plexus/nd_range.hpp"

namespace plexus {

template <int Dims>
class Range {
  static_assert(Dims >= 1 && Dims <= 3, "plexus::Range has 1 to 3 dimensions");

 public:
  static constexpr int dimensions = Dims;

  constexpr Range() = default;  // all zero
  constexpr explicit Range(std::size_t d0) requires(Dims == 1) : values_{d0} {}
  constexpr Range(std::size_t d0, std::size_t d1) requires(Dims == 2) : values_{d0, d1} {}
  constexpr Range(std::size_t d0, std::size_t d1, std::size_t d2) requires(Dims == 3)
      : values_{d0, d1, d2} {}

  constexpr std::size_t operator[](int d) const { return values_[static_cast<std::size_t>(d)]; }
  constexpr std::size_t& operator[](int d) { return values_[static_cast<std::size_t>(d)]; }
  constexpr std::size_t get(int d) const { return (*this)[d]; }
  // Product of the extents.
  constexpr std::size_t size() const {
    std::size_t total = 1;
    for (auto value : values_) total *= value;
    return total;
  }
  // Widened to three dimensions with `fill` in the unused ones (1 for extents, 0 offsets).
  constexpr Extent3 extent3(std::size_t fill = 1) const {
    Extent3 out{fill, fill, fill};
    for (int d = 0; d < Dims; ++d) out[static_cast<std::size_t>(d)] = values_[static_cast<std::size_t>(d)];
    return out;
  }
  friend constexpr bool operator==(const Range&, const Range&) = default;

 private:
  std::array<std::size_t, Dims> values_{};
};

Range(std::size_t) -> Range<1>;
Range(std::size_t, std::size_t) -> Range<2>;
Range(std::size_t, std::size_t, std::size_t) -> Range<3>;

// An index space without a work-group size (the backend picks it).
template <int Dims>
NdRange nd_range(const Range<Dims>& global) {
  NdRange out;
  out.dimensions = Dims;
  out.global = global.extent3(1);
  return out;
}

// An index space in work-groups of `local`; every global extent must be a multiple of the
// local one (plexus::validate checks it at submission: plexus::error(invalid_argument)).
template <int Dims>
NdRange nd_range(const Range<Dims>& global, const Range<Dims>& local,
                 const Range<Dims>& offset = Range<Dims>{}) {
  NdRange out = nd_range(global);
  out.local = local.extent3(1);
  out.offset = offset.extent3(0);
  return out;
}

}  // namespace plexus
