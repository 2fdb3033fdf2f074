// simplest_layout: the same bytes as a CopyLayout in the fewest dimensions. Rows that follow
// each other without a gap become one longer row, and slices made of one row become rows, so
// a 2D buffer's tile is not described as slices of one-element rows (NVIDIA's OpenCL refuses
// some of those *Rect copies, and every backend moves longer rows faster). Pure function.
#pragma once

#include "plexus/device_queue.hpp"

namespace plexus::detail {

inline CopyLayout simplest_layout(CopyLayout layout) {
  if (layout.rows > 1 && layout.row_pitch == layout.row_bytes) {  // rows back to back
    layout.row_bytes *= layout.rows;
    layout.rows = 1;
  }
  if (layout.rows == 1 && layout.slices > 1) {  // slices of one row: rows
    layout.rows = layout.slices;
    layout.row_pitch = layout.slice_pitch;
    layout.slices = 1;
    if (layout.row_pitch == layout.row_bytes) {
      layout.row_bytes *= layout.rows;
      layout.rows = 1;
    }
  }
  if (layout.slices == 1) layout.slice_pitch = layout.rows * layout.row_pitch;
  if (layout.rows == 1) layout.row_pitch = layout.slice_pitch = layout.row_bytes;
  return layout;
}

}  // namespace plexus::detail
