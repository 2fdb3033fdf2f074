// origin_of: where a CopyLayout's region starts, as the (x bytes, y rows, z slices) origin
// the OpenCL *Rect copies take. Pure function.
#pragma once

#include <array>
#include <cstddef>

#include "plexus/device_queue.hpp"

namespace plexus::opencl {

// The origin of `layout.offset` in pitches `row_pitch` and `slice_pitch`, when the offset
// falls inside a row with room for row_bytes; else {offset, 0, 0} (a linear offset, which
// OpenCL computes the same way).
inline std::array<std::size_t, 3> origin_of(const CopyLayout& layout, std::size_t row_pitch,
                                            std::size_t slice_pitch) {
  std::size_t rest = layout.offset;
  const std::size_t z = slice_pitch ? rest / slice_pitch : 0;
  rest -= z * slice_pitch;
  const std::size_t y = row_pitch ? rest / row_pitch : 0;
  rest -= y * row_pitch;
  if (rest + layout.row_bytes > row_pitch) return {layout.offset, 0, 0};
  return {rest, y, z};
}

}  // namespace plexus::opencl
