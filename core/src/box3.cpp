#include "plexus/box3.hpp"

#include <algorithm>
#include <tuple>

namespace plexus {

std::size_t volume(const Box3& box) { return box.extent[0] * box.extent[1] * box.extent[2]; }

bool operator==(const Box3& a, const Box3& b) {
  return a.offset == b.offset && a.extent == b.extent;
}

bool intersects(const Box3& a, const Box3& b) {
  if (is_empty(a) || is_empty(b)) return false;
  for (int d = 0; d < 3; ++d) {
    if (a.offset[d] >= b.offset[d] + b.extent[d] || b.offset[d] >= a.offset[d] + a.extent[d]) {
      return false;
    }
  }
  return true;
}

bool contains(const Box3& outer, const Box3& inner) {
  for (int d = 0; d < 3; ++d) {
    if (inner.offset[d] < outer.offset[d] ||
        inner.offset[d] + inner.extent[d] > outer.offset[d] + outer.extent[d]) {
      return false;
    }
  }
  return true;
}

Box3 intersection(const Box3& a, const Box3& b) {
  Box3 out;
  for (int d = 0; d < 3; ++d) {
    std::size_t lo = std::max(a.offset[d], b.offset[d]);
    std::size_t hi = std::min(a.offset[d] + a.extent[d], b.offset[d] + b.extent[d]);
    out.offset[d] = lo;
    out.extent[d] = hi > lo ? hi - lo : 0;
  }
  if (is_empty(out)) out.extent = {0, 0, 0};
  return out;
}

void subtract(const Box3& a, const Box3& b, std::vector<Box3>& out) {
  if (!intersects(a, b)) {
    if (!is_empty(a)) out.push_back(a);
    return;
  }
  // Peel slabs off `rest` along each dimension: below and above b.
  Box3 rest = a;
  for (int d = 0; d < 3; ++d) {
    std::size_t lo = b.offset[d], hi = b.offset[d] + b.extent[d];
    std::size_t rest_hi = rest.offset[d] + rest.extent[d];
    if (rest.offset[d] < lo) {
      Box3 below = rest;
      below.extent[d] = lo - rest.offset[d];
      out.push_back(below);
      rest.offset[d] = lo;
      rest.extent[d] = rest_hi - lo;
    }
    if (rest_hi > hi) {
      Box3 above = rest;
      above.offset[d] = hi;
      above.extent[d] = rest_hi - hi;
      out.push_back(above);
      rest.extent[d] = hi - rest.offset[d];
    }
  }
}

namespace {

// Merges boxes adjacent along `d` that agree in the other two dimensions.
bool merge_along(std::vector<Box3>& boxes, int d) {
  const int e = (d + 1) % 3, f = (d + 2) % 3;
  auto key = [&](const Box3& box) {
    return std::make_tuple(box.offset[e], box.extent[e], box.offset[f], box.extent[f],
                           box.offset[d]);
  };
  std::sort(boxes.begin(), boxes.end(),
            [&](const Box3& a, const Box3& b) { return key(a) < key(b); });
  bool merged = false;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    if (kept > 0) {
      Box3& last = boxes[kept - 1];
      const Box3& next = boxes[i];
      if (last.offset[e] == next.offset[e] && last.extent[e] == next.extent[e] &&
          last.offset[f] == next.offset[f] && last.extent[f] == next.extent[f] &&
          last.offset[d] + last.extent[d] == next.offset[d]) {
        last.extent[d] += next.extent[d];
        merged = true;
        continue;
      }
    }
    boxes[kept++] = boxes[i];
  }
  boxes.resize(kept);
  return merged;
}

}  // namespace

void coalesce(std::vector<Box3>& boxes) {
  // Fastest dimension first: rows become slabs, slabs become blocks.
  bool changed = true;
  while (changed && boxes.size() > 1) {
    changed = false;
    for (int d = 2; d >= 0; --d) changed = merge_along(boxes, d) || changed;
  }
  std::sort(boxes.begin(), boxes.end(), [](const Box3& a, const Box3& b) {
    return std::tie(a.offset, a.extent) < std::tie(b.offset, b.extent);
  });
}

Box3 round_out(const Box3& box, const Extent3& granule, const Extent3& extent) {
  Box3 out;
  for (int d = 0; d < 3; ++d) {
    std::size_t lo = box.offset[d] / granule[d] * granule[d];
    std::size_t hi = (box.offset[d] + box.extent[d] + granule[d] - 1) / granule[d] * granule[d];
    hi = std::min(hi, extent[d]);
    out.offset[d] = lo;
    out.extent[d] = hi - lo;
  }
  return out;
}

std::size_t linear_offset(const Box3& box, const Extent3& extent) {
  return (box.offset[0] * extent[1] + box.offset[1]) * extent[2] + box.offset[2];
}

bool is_contiguous(const Box3& box, const Extent3& extent) {
  // Once a dimension is partial, every slower dimension must have extent 1.
  bool partial = false;
  for (int d = 2; d >= 0; --d) {
    if (partial && box.extent[d] != 1) return false;
    if (box.extent[d] != extent[d]) partial = true;
  }
  return true;
}

BoxSet::BoxSet(const Box3& box) {
  if (!is_empty(box)) boxes_.push_back(box);
}

std::size_t BoxSet::volume() const {
  std::size_t total = 0;
  for (const auto& box : boxes_) total += plexus::volume(box);
  return total;
}

bool BoxSet::intersects(const Box3& box) const {
  for (const auto& mine : boxes_) {
    if (plexus::intersects(mine, box)) return true;
  }
  return false;
}

void BoxSet::add(const Box3& added) {
  if (is_empty(added)) return;
  const Box3 box = added;  // `added` may be one of our own boxes, which subtract() frees
  subtract(box);
  boxes_.push_back(box);
  coalesce(boxes_);
}

void BoxSet::add(const BoxSet& other) {
  if (&other == this) return;  // a set united with itself is unchanged
  for (const auto& box : other.boxes_) add(box);
}

void BoxSet::subtract(const Box3& box) {
  if (!intersects(box)) return;
  std::vector<Box3> out;
  out.reserve(boxes_.size() + 6);
  for (const auto& mine : boxes_) plexus::subtract(mine, box, out);
  boxes_ = std::move(out);
  coalesce(boxes_);
}

void BoxSet::subtract(const BoxSet& other) {
  if (&other == this) {
    // Each subtract(box) below replaces boxes_, so iterating our own boxes would read freed
    // memory: a set minus itself is empty.
    boxes_.clear();
    return;
  }
  for (const auto& box : other.boxes_) subtract(box);
}

BoxSet BoxSet::intersection(const Box3& box) const {
  BoxSet out;
  for (const auto& mine : boxes_) {
    Box3 common = plexus::intersection(mine, box);
    if (!is_empty(common)) out.boxes_.push_back(common);
  }
  coalesce(out.boxes_);
  return out;
}

BoxSet BoxSet::intersection(const BoxSet& other) const {
  BoxSet out;
  for (const auto& box : other.boxes_) {
    for (const auto& mine : boxes_) {
      Box3 common = plexus::intersection(mine, box);
      if (!is_empty(common)) out.boxes_.push_back(common);
    }
  }
  coalesce(out.boxes_);
  return out;
}

}  // namespace plexus
