// validate_copy: the checks every backend makes on a DeviceQueue copy's CopyLayout, so that
// a bad copy fails the same way on every device; validate_usm_copy and validate_usm_fill
// the same for DeviceQueue::usm_copy and usm_fill. Pure functions: thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "plexus/device_queue.hpp"
#include "plexus/export.hpp"

namespace plexus {

// One past the last byte the layout touches, counted from the allocation's start:
// offset + (slices-1)*slice_pitch + (rows-1)*row_pitch + row_bytes.
PLEXUS_API std::size_t copy_extent(const CopyLayout& layout);

// Throws plexus::error(invalid_argument) naming `what` and the layout when: row_bytes is 0,
// rows or slices is 0, row_pitch < row_bytes with rows > 1, slice_pitch < rows * row_pitch
// with slices > 1, a null allocation or host address, or the region ends past
// `allocation_bytes` (pass SIZE_MAX when the backend cannot tell an allocation's size).
PLEXUS_API void validate_copy(const CopyLayout& layout, const void* allocation,
                              const void* host, std::size_t allocation_bytes,
                              const std::string& what);
// The same, with `what` built only when a check fails (a backend's per-copy path).
PLEXUS_API void validate_copy(const CopyLayout& layout, const void* allocation,
                              const void* host, std::size_t allocation_bytes,
                              const std::function<std::string()>& what);

// Throw plexus::error(invalid_argument) "<what>: ..." for a null destination or source
// (pattern), a pattern of 0 bytes, or `bytes` that are not a whole number of patterns.
PLEXUS_API void validate_usm_copy(void* destination, const void* source, const std::string& what);
PLEXUS_API void validate_usm_fill(void* destination, const void* pattern, std::size_t pattern_size,
                                  std::size_t bytes, const std::string& what);

}  // namespace plexus
