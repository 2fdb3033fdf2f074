#include "plexus/copy_validation.hpp"

#include "plexus/error.hpp"

namespace plexus {
namespace {

std::string describe(const CopyLayout& layout) {
  return "{offset " + std::to_string(layout.offset) + ", row_bytes " +
         std::to_string(layout.row_bytes) + ", rows " + std::to_string(layout.rows) +
         ", slices " + std::to_string(layout.slices) + ", row_pitch " +
         std::to_string(layout.row_pitch) + ", slice_pitch " + std::to_string(layout.slice_pitch) +
         "}";
}

}  // namespace

std::size_t copy_extent(const CopyLayout& layout) {
  if (layout.bytes() == 0) return layout.offset;
  return layout.offset + (layout.slices - 1) * layout.slice_pitch +
         (layout.rows - 1) * layout.row_pitch + layout.row_bytes;
}

void validate_copy(const CopyLayout& layout, const void* allocation, const void* host,
                   std::size_t allocation_bytes, const std::string& what) {
  validate_copy(layout, allocation, host, allocation_bytes,
                std::function<std::string()>([&what] { return what; }));
}

void validate_copy(const CopyLayout& layout, const void* allocation, const void* host,
                   std::size_t allocation_bytes, const std::function<std::string()>& what) {
  auto refuse = [&](const std::string& problem) {
    throw error(error_category::invalid_argument,
                what() + ": copy layout " + describe(layout) + ": " + problem);
  };
  if (!allocation) refuse("the device allocation is null");
  if (!host) refuse("the host address is null");
  if (layout.row_bytes == 0 || layout.rows == 0 || layout.slices == 0)
    refuse("an empty region (row_bytes, rows and slices must be at least 1)");
  if (layout.rows > 1 && layout.row_pitch < layout.row_bytes)
    refuse("row_pitch is smaller than row_bytes");
  if (layout.slices > 1 && layout.slice_pitch < layout.rows * layout.row_pitch)
    refuse("slice_pitch is smaller than rows * row_pitch");
  if (const std::size_t end = copy_extent(layout); end > allocation_bytes)
    refuse("the region ends at byte " + std::to_string(end) + ", past the allocation's " +
           std::to_string(allocation_bytes) + " bytes");
}

void validate_usm_copy(void* destination, const void* source, const std::string& what) {
  if (!destination || !source)
    throw error(error_category::invalid_argument,
                what + ": a null " + (destination ? "source" : "destination"));
}

void validate_usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                       std::size_t bytes, const std::string& what) {
  if (!destination || !pattern || pattern_size == 0 || bytes % pattern_size != 0)
    throw error(error_category::invalid_argument,
                what + ": " + std::to_string(bytes) + " bytes with a pattern of " +
                    std::to_string(pattern_size) +
                    " bytes (a null pointer, or not a whole number of patterns)");
}

}  // namespace plexus
