#include "packing.hpp"

#include <cstdint>
#include <cstring>
#include <utility>

#include "plexus/copy_validation.hpp"

namespace plexus::mpi {

void pack(std::byte* packed, const std::byte* base, const CopyLayout& layout) {
  for (std::size_t s = 0; s < layout.slices; ++s)
    for (std::size_t r = 0; r < layout.rows; ++r, packed += layout.row_bytes)
      std::memcpy(packed, base + layout.offset + s * layout.slice_pitch + r * layout.row_pitch,
                  layout.row_bytes);
}

void unpack(std::byte* base, const std::byte* packed, const CopyLayout& layout) {
  for (std::size_t s = 0; s < layout.slices; ++s)
    for (std::size_t r = 0; r < layout.rows; ++r, packed += layout.row_bytes)
      std::memcpy(base + layout.offset + s * layout.slice_pitch + r * layout.row_pitch, packed,
                  layout.row_bytes);
}

RegionStaging::RegionStaging(const CopyLayout& layout)
    : layout_(layout), size_(span_bytes(layout)), bytes_(new std::byte[size_]) {}

RegionStaging::RegionStaging(const CopyLayout& layout, std::shared_ptr<std::byte[]> memory)
    : layout_(layout), size_(span_bytes(layout)), bytes_(std::move(memory)) {}

std::size_t RegionStaging::span_bytes(const CopyLayout& layout) {
  return copy_extent(layout) - layout.offset;
}

std::byte* RegionStaging::base() const {
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(bytes_.get()) -
                                      layout_.offset);
}

}  // namespace plexus::mpi
