// Packing of strided copy regions (CopyLayout) for the wire: the rows of a region one after
// another, and host staging that mirrors a region's span. Pure functions: thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "plexus/device_queue.hpp"

namespace plexus::mpi {

inline bool contiguous(const CopyLayout& layout) { return layout.rows == 1 && layout.slices == 1; }

// The region `layout` of the memory at `base` (offset applied), row after row, into `packed`.
void pack(std::byte* packed, const std::byte* base, const CopyLayout& layout);
// The reverse: `packed` rows into the region `layout` of `base`.
void unpack(std::byte* base, const std::byte* packed, const CopyLayout& layout);

// Host memory covering only the bytes a region spans (from its offset to its extent): base()
// is where an allocation laid out like the region would start, for DeviceQueue copies that
// take a host base address. The address is computed as an integer; only the span is touched.
// The span is not zeroed first (every use overwrites what it reads).
class RegionStaging {
 public:
  explicit RegionStaging(const CopyLayout& layout);
  // In `memory`, of at least span_bytes(layout) bytes, kept with the staging (a pooled,
  // page-locked buffer: no page faults, and a device copies it at full speed).
  RegionStaging(const CopyLayout& layout, std::shared_ptr<std::byte[]> memory);
  std::byte* base() const;
  std::byte* span() { return bytes_.get(); }
  std::size_t span_bytes() const { return size_; }
  static std::size_t span_bytes(const CopyLayout& layout);

 private:
  CopyLayout layout_;
  std::size_t size_;
  std::shared_ptr<std::byte[]> bytes_;
};

}  // namespace plexus::mpi
