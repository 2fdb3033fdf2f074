// What a copy of a CopyLayout must do, for the device conformance copy tests: byte
// patterns, the host-side model of a region copy (apply), and a layout's description for
// INFO. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "plexus/device_queue.hpp"

namespace plexus::test {

using Bytes = std::vector<std::uint8_t>;

// `size` bytes seed, seed + step, seed + 2 step, ... (mod 256).
inline Bytes pattern(std::size_t size, std::uint8_t seed, std::size_t step = 7) {
  Bytes bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(seed + i * step);
  return bytes;
}

// What a copy of `layout` from `from` into `to` (same layout on both sides) must do.
inline void apply(const CopyLayout& layout, const Bytes& from, Bytes& to) {
  for (std::size_t s = 0; s < layout.slices; ++s)
    for (std::size_t r = 0; r < layout.rows; ++r)
      for (std::size_t b = 0; b < layout.row_bytes; ++b) {
        const std::size_t at = layout.offset + s * layout.slice_pitch + r * layout.row_pitch + b;
        to[at] = from[at];
      }
}

inline std::string describe(const CopyLayout& layout) {
  std::ostringstream text;
  text << "layout offset " << layout.offset << " row_bytes " << layout.row_bytes << " rows "
       << layout.rows << " slices " << layout.slices << " row_pitch " << layout.row_pitch
       << " slice_pitch " << layout.slice_pitch;
  return text.str();
}

}  // namespace plexus::test
