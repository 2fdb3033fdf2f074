// Access modes and Accessor<T, Dims>: a buffer access declared in a command group.
//
//   auto a = buf.access(h, plexus::read_write);                          // whole buffer
//   auto b = buf.access(h, plexus::read, Range{64}, Range{128});          // extent, offset
//   h.host_task([=] { a[3] += b[130]; });                                 // buffer indices
//
// Modes: read, write (the old contents must be valid first), read_write, discard_write
// (= no_init: overwrites the whole range, never transfers). Indices are the buffer's own
// (an accessor with an offset still indexes from the buffer's first element, as in SYCL);
// data() is the buffer's first element. Element access is meaningful inside a host task of
// the same group; kernels receive the buffer's allocation on their device.
// A plain value (copied into host tasks); thread-safety as the buffer's data.
#pragma once

#include <cstddef>
#include <memory>

#include "plexus/access_range.hpp"
#include "plexus/buffer_handle.hpp"
#include "plexus/handler.hpp"
#include "plexus/range.hpp"

namespace plexus {

inline constexpr AccessMode read = AccessMode::read;
inline constexpr AccessMode write = AccessMode::write;
inline constexpr AccessMode read_write = AccessMode::read_write;
inline constexpr AccessMode discard_write = AccessMode::discard_write;
inline constexpr AccessMode no_init = AccessMode::discard_write;

template <class T, int Dims = 1>
class Accessor {
 public:
  Accessor(BufferHandle& buffer, Handler& handler, AccessMode mode, const Range<Dims>& extent,
           const Range<Dims>& offset)
      : handler_(&handler), extent_(extent), offset_(offset), mode_(mode) {
    Requirement requirement =
        buffer.require(AccessRange{offset.extent3(0), extent.extent3(1)}, mode, "accessor");
    storage_ = requirement.storage;
    index_ = handler.add_requirement(requirement);
    extent3_ = buffer.extent();
  }

  T* data() const { return static_cast<T*>(host_base(*storage_)); }
  T& operator[](std::size_t index) const requires(Dims == 1) { return data()[index]; }
  T& operator()(std::size_t i, std::size_t j) const requires(Dims == 2) {
    return data()[i * extent3_[1] + j];
  }
  T& operator()(std::size_t i, std::size_t j, std::size_t k) const requires(Dims == 3) {
    return data()[(i * extent3_[1] + j) * extent3_[2] + k];
  }

  const Range<Dims>& get_range() const { return extent_; }
  const Range<Dims>& get_offset() const { return offset_; }
  AccessMode mode() const { return mode_; }

  // For Handler and InteropHandle: which group, which of its requirements, which buffer.
  const Handler* handler() const { return handler_; }
  std::size_t requirement_index() const { return index_; }
  const std::shared_ptr<detail::BufferStorage>& storage() const { return storage_; }

 private:
  std::shared_ptr<detail::BufferStorage> storage_;
  const Handler* handler_;
  std::size_t index_ = 0;
  Range<Dims> extent_;
  Range<Dims> offset_;
  Extent3 extent3_{1, 1, 1};
  AccessMode mode_;
};

}  // namespace plexus
