// The OpenCL *Rect copies of a CopyLayout: origin_of (where the region starts, as the
// (x bytes, y rows, z slices) origin they take) and rect_copies_of (the calls that move a
// region of several rows or slices, with the same origin and pitches on both sides). Pure
// functions.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

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

// One clEnqueue{Read,Write,Copy}BufferRect: the same origin and pitches on both sides.
struct RectCopy {
  std::array<std::size_t, 3> origin;
  std::array<std::size_t, 3> region;  // bytes, rows, slices
  std::size_t row_pitch = 0;
  std::size_t slice_pitch = 0;  // 0 for one slice
};

// The rectangular copies that move `layout`: one when the slices are a whole number of rows
// apart (or there is one slice), else one per slice.
inline std::vector<RectCopy> rect_copies_of(const CopyLayout& layout) {
  const std::size_t row_pitch = layout.rows > 1 ? layout.row_pitch : layout.row_bytes;
  const bool one_call = layout.slices == 1 || layout.slice_pitch % row_pitch == 0;
  const std::size_t slices = one_call ? layout.slices : 1;
  const std::size_t slice_pitch = one_call && layout.slices > 1 ? layout.slice_pitch : 0;
  std::vector<RectCopy> copies;
  for (std::size_t s = 0; s < layout.slices; s += slices) {
    CopyLayout part = layout;
    part.offset = layout.offset + s * layout.slice_pitch;
    copies.push_back({origin_of(part, row_pitch, slice_pitch),
                      {layout.row_bytes, layout.rows, slices},
                      row_pitch,
                      slice_pitch});
  }
  return copies;
}

// "origin (x, y, z) region (bytes, rows, slices) row pitch R slice pitch S", for errors.
inline std::string describe(const RectCopy& rect) {
  const auto triple = [](const std::array<std::size_t, 3>& v) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) +
           ")";
  };
  return "origin " + triple(rect.origin) + " region " + triple(rect.region) + " row pitch " +
         std::to_string(rect.row_pitch) + " slice pitch " + std::to_string(rect.slice_pitch);
}

}  // namespace plexus::opencl
