// Buffer<T, Dims>: data that kernels and host tasks access through accessors; the runtime
// moves it between host and devices as the memory model plans (AdaptiveCpp's buffer model:
// one lazy full-size allocation per location, never reallocated).
//
//   std::vector<float> host(n, 1.0f);
//   plexus::Buffer<float> x(host.data(), n);           // copies the host data in
//   plexus::Buffer<float, 2> m(plexus::Range{rows, cols});          // uninitialized
//   plexus::Buffer<float, 3> p(plexus::Range{8, 8, 8}, {.page_extent = {4, 4, 4}});
//   q.submit([&](plexus::Handler& h) { auto a = x.access(h, plexus::read_write); ... });
//   { auto view = x.host_access(plexus::read); use(view[0]); }   // waits, then valid on host
//   x.copy_to(host.data());                             // the whole buffer back
//   float* usm = x.device_pointer(q);                   // valid for the buffer's life
//
// A shared handle: copies refer to the same buffer; the last one to go waits for every
// task that used the buffer, then frees its allocations. T must be trivially copyable.
// Thread-safety: members may be called from any thread. Errors: plexus::error
// (invalid_argument) for a zero extent, a range outside the buffer, use with a second
// runtime or after the runtime is destroyed.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

#include "plexus/accessor.hpp"
#include "plexus/buffer_handle.hpp"
#include "plexus/host_view.hpp"
#include "plexus/queue.hpp"
#include "plexus/range.hpp"
#include "plexus/runtime.hpp"

namespace plexus {

template <class T, int Dims = 1>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>, "buffer elements must be trivially copyable");

 public:
  explicit Buffer(const Range<Dims>& range, const BufferOptions& options = {})
      : Buffer(nullptr, range, options) {}
  Buffer(const T* host_data, const Range<Dims>& range, const BufferOptions& options = {})
      : range_(range),
        handle_(std::make_shared<BufferHandle>(sizeof(T), range.extent3(1), Dims, host_data,
                                               options)) {}
  explicit Buffer(std::size_t count, const BufferOptions& options = {}) requires(Dims == 1)
      : Buffer(Range<1>{count}, options) {}
  Buffer(const T* host_data, std::size_t count, const BufferOptions& options = {})
      requires(Dims == 1)
      : Buffer(host_data, Range<1>{count}, options) {}

  const Range<Dims>& range() const { return range_; }
  std::size_t size() const { return range_.size(); }
  std::size_t byte_size() const { return range_.size() * sizeof(T); }

  Accessor<T, Dims> access(Handler& handler, AccessMode mode) {
    return Accessor<T, Dims>(*handle_, handler, mode, range_, Range<Dims>{});
  }
  Accessor<T, Dims> access(Handler& handler, AccessMode mode, const Range<Dims>& extent,
                           const Range<Dims>& offset = Range<Dims>{}) {
    return Accessor<T, Dims>(*handle_, handler, mode, extent, offset);
  }

  HostView<T, Dims> host_access(AccessMode mode = AccessMode::read) {
    return host_access(mode, range_, Range<Dims>{});
  }
  HostView<T, Dims> host_access(AccessMode mode, const Range<Dims>& extent,
                                const Range<Dims>& offset = Range<Dims>{}) {
    HostAccess access = handle_->host_access(AccessRange{offset.extent3(0), extent.extent3(1)}, mode);
    return HostView<T, Dims>(std::move(access), handle_->extent(), extent, offset);
  }

  // Copies the whole buffer to `out` (size() elements), waiting for earlier writers.
  void copy_to(T* out) {
    auto view = host_access(AccessMode::read);
    std::memcpy(out, view.data(), byte_size());
  }

  // The buffer's allocation on the queue's device (host memory where the device shares
  // it), USM style: valid until the buffer is destroyed; the user synchronises its use.
  T* device_pointer(const Queue& queue) {
    return static_cast<T*>(handle_->device_pointer(queue.runtime_state(), queue.device()));
  }
  T* device_pointer(Runtime& runtime, Device& device) {
    return static_cast<T*>(handle_->device_pointer(runtime.state(), device));
  }

  BufferHandle& handle() const { return *handle_; }

 private:
  Range<Dims> range_;
  std::shared_ptr<BufferHandle> handle_;
};

}  // namespace plexus
