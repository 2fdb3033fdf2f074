// HostView<T, Dims>: what Buffer::host_access returns: the buffer's data on the host,
// valid for the requested range while the view lives. Later work that conflicts with the
// access (a write view: any access of the range; a read view: writes) waits until the view
// is destroyed, so release views before waiting on such work (the inorder scheduler runs
// work at submission).
// Indices are the buffer's own, as for Accessor. Move-only; thread-safety as the data.
#pragma once

#include <cstddef>

#include "plexus/buffer_handle.hpp"
#include "plexus/range.hpp"

namespace plexus {

template <class T, int Dims = 1>
class HostView {
 public:
  HostView(HostAccess access, const Extent3& extent, const Range<Dims>& view_extent,
           const Range<Dims>& view_offset)
      : access_(std::move(access)), extent_(extent), view_extent_(view_extent),
        view_offset_(view_offset) {}

  T* data() const { return static_cast<T*>(access_.base()); }
  T& operator[](std::size_t index) const requires(Dims == 1) { return data()[index]; }
  T& operator()(std::size_t i, std::size_t j) const requires(Dims == 2) {
    return data()[i * extent_[1] + j];
  }
  T& operator()(std::size_t i, std::size_t j, std::size_t k) const requires(Dims == 3) {
    return data()[(i * extent_[1] + j) * extent_[2] + k];
  }
  const Range<Dims>& get_range() const { return view_extent_; }
  const Range<Dims>& get_offset() const { return view_offset_; }

 private:
  HostAccess access_;
  Extent3 extent_;
  Range<Dims> view_extent_;
  Range<Dims> view_offset_;
};

}  // namespace plexus
