// Box3 and BoxSet: policy-free 3D box geometry in elements (the memory models and the
// schedulers use it). A box is an AccessRange (offset + extent); a BoxSet is a set of
// disjoint boxes kept coalesced: adjacent boxes that together form a box are merged, so
// a contiguous region is a few boxes, not one per insertion.
//
// Thread-safety: plain values; a BoxSet is as safe as a std::vector.
#pragma once

#include <cstddef>
#include <vector>

#include "plexus/access_range.hpp"
#include "plexus/export.hpp"

namespace plexus {

using Box3 = AccessRange;

PLEXUS_API std::size_t volume(const Box3& box);
inline bool is_empty(const Box3& box) {
  return box.extent[0] == 0 || box.extent[1] == 0 || box.extent[2] == 0;
}
PLEXUS_API bool operator==(const Box3& a, const Box3& b);
PLEXUS_API bool intersects(const Box3& a, const Box3& b);
PLEXUS_API bool contains(const Box3& outer, const Box3& inner);
// The common part of a and b; an empty box (extent 0) when they do not intersect.
PLEXUS_API Box3 intersection(const Box3& a, const Box3& b);
// a minus b as at most six disjoint boxes, appended to `out`.
PLEXUS_API void subtract(const Box3& a, const Box3& b, std::vector<Box3>& out);
// Merges adjacent disjoint boxes in place (greedily, along each dimension, until no two
// boxes can be merged). Sorted afterwards (slowest dimension first), so deterministic.
PLEXUS_API void coalesce(std::vector<Box3>& boxes);
// The box rounded out to a grid of `granule` (clipped to `extent`).
PLEXUS_API Box3 round_out(const Box3& box, const Extent3& granule, const Extent3& extent);

// Row-major layout (last dimension fastest) of a buffer of `extent`: the linear index of the
// box's first element, and whether the box is one contiguous run of elements.
PLEXUS_API std::size_t linear_offset(const Box3& box, const Extent3& extent);
PLEXUS_API bool is_contiguous(const Box3& box, const Extent3& extent);

class PLEXUS_API BoxSet {
 public:
  BoxSet() = default;
  explicit BoxSet(const Box3& box);

  const std::vector<Box3>& boxes() const { return boxes_; }
  bool empty() const { return boxes_.empty(); }
  std::size_t volume() const;
  bool intersects(const Box3& box) const;

  // The arguments may alias this set (`set.subtract(set)`, `set.add(set.boxes()[0])`).
  void add(const Box3& box);
  void add(const BoxSet& other);
  void subtract(const Box3& box);
  void subtract(const BoxSet& other);
  BoxSet intersection(const Box3& box) const;
  BoxSet intersection(const BoxSet& other) const;

 private:
  std::vector<Box3> boxes_;  // disjoint, non-empty, coalesced
};

}  // namespace plexus
