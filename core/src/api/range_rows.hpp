// for_each_row: the rows of an accessor's range in its buffer, in row-major order of the
// range: calls visit(byte offset in the buffer, row bytes) for each run of contiguous
// elements (a row of the range's last dimension). Internal to the core; shared by the
// buffer commands on the host (handler_buffer_commands.cpp) and on devices
// (device_buffer_command.cpp).
#pragma once

#include <cstddef>

#include "plexus/access_range.hpp"
#include "plexus/memory_model.hpp"

namespace plexus::detail {

template <class Visit>
void for_each_row(const AccessRange& range, const BufferDesc& desc, Visit&& visit) {
  const Extent3& whole = desc.extent;
  const std::size_t element = desc.element_size;
  const std::size_t row_bytes = range.extent[2] * element;
  for (std::size_t i = 0; i < range.extent[0]; ++i)
    for (std::size_t j = 0; j < range.extent[1]; ++j) {
      const std::size_t first =
          ((range.offset[0] + i) * whole[1] + range.offset[1] + j) * whole[2] + range.offset[2];
      visit(first * element, row_bytes);
    }
}

}  // namespace plexus::detail
