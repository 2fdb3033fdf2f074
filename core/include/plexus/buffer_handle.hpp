// BufferHandle: the untyped buffer behind plexus::Buffer<T, Dims> (buffer.hpp), and the
// pieces the typed API shares with the core: Requirement (one access of a command group)
// and HostAccess (the untyped host view).
//
// A buffer binds to a Runtime on first use with it (an accessor in a command group, a
// device_pointer): its memory-model buffer and allocations live in that runtime; using it
// with another runtime, or after its runtime is destroyed, is plexus::error(invalid_argument).
// Until bound, host_access() uses the host copy directly.
//
// Ownership: the handle owns the buffer; command groups and host views share its storage,
// which lives until the last of them is done. ~BufferHandle waits for every task that used
// the buffer, then frees its device allocations. Thread-safety: every member may be called
// from any thread.
#pragma once

#include <cstddef>
#include <memory>

#include "plexus/access_range.hpp"
#include "plexus/export.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

class Device;
class Runtime;

namespace detail {
class BufferStorage;
class RuntimeState;
}  // namespace detail

struct BufferOptions {
  // Page extent in elements per dimension for page-based memory policies (memory/paged);
  // {0, 0, 0}: the policy's default. Ignored by policies without pages.
  Extent3 page_extent{0, 0, 0};
};

// One access of a buffer by a command group: a range in elements and a mode.
struct Requirement {
  std::shared_ptr<detail::BufferStorage> storage;
  AccessRange range;
  AccessMode mode = AccessMode::read;
};

// What a host access made valid on the host; released (and later conflicting work let go)
// when destroyed. Move-only.
class PLEXUS_API HostAccess {
 public:
  HostAccess() = default;
  HostAccess(std::shared_ptr<detail::BufferStorage> storage, void* base,
             std::shared_ptr<TaskEvent> release);
  HostAccess(HostAccess&& other) noexcept = default;
  HostAccess& operator=(HostAccess&& other) noexcept;
  HostAccess(const HostAccess&) = delete;
  HostAccess& operator=(const HostAccess&) = delete;
  ~HostAccess();

  void* base() const { return base_; }  // the buffer's first element in host memory

 private:
  void release() noexcept;

  std::shared_ptr<detail::BufferStorage> storage_;
  void* base_ = nullptr;
  std::shared_ptr<TaskEvent> release_;  // completed when the view goes away
};

class PLEXUS_API BufferHandle {
 public:
  // `host_data` (may be null: uninitialized) is copied in. extent: elements per dimension,
  // trailing 1s for fewer dimensions; a zero extent or element size is invalid_argument.
  BufferHandle(std::size_t element_size, const Extent3& extent, int dimensions,
               const void* host_data, const BufferOptions& options);
  ~BufferHandle();
  BufferHandle(const BufferHandle&) = delete;
  BufferHandle& operator=(const BufferHandle&) = delete;

  const Extent3& extent() const;
  std::size_t element_size() const;
  int dimensions() const;

  // A requirement for `range` (checked to lie inside the buffer: invalid_argument naming
  // the range, the buffer's extent and `what`).
  Requirement require(const AccessRange& range, AccessMode mode, const char* what) const;
  // Waits for earlier conflicting work and makes `range` valid on the host (no transfer
  // for discard_write or a never-written buffer).
  HostAccess host_access(const AccessRange& range, AccessMode mode);
  // The buffer's allocation on `device` (allocated now if needed; valid for the buffer's
  // life). Binds the buffer to `runtime`. Data is not made valid there.
  void* device_pointer(const std::weak_ptr<detail::RuntimeState>& runtime, Device& device);

  const std::shared_ptr<detail::BufferStorage>& storage() const { return storage_; }

 private:
  std::shared_ptr<detail::BufferStorage> storage_;
};

// The host address of a buffer's first element (host tasks' accessors use it).
PLEXUS_API void* host_base(const detail::BufferStorage& storage);

}  // namespace plexus
