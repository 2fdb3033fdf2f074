// BufferStorage: one buffer's memory: the host copy, one full-size allocation per location
// (lazy, never reallocated), its memory-model buffer and the tasks that used it.
// Internal to the core.
//
// Binding: a buffer belongs to no runtime until first used with one (bind()); its
// memory-model buffer is created then. Host memory exists from construction when created
// from host data, else from the first time it is needed (uninitialized, never transferred).
// Ownership: shared by the BufferHandle, command bodies and host views; device allocations
// are freed by release() (buffer handle going, or runtime shutdown), the host copy by the
// destructor. Thread-safety: every member is safe from any thread.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "pending_events.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/task_event.hpp"

namespace plexus::detail {

class RuntimeState;

class BufferStorage : public std::enable_shared_from_this<BufferStorage> {
 public:
  BufferStorage(std::size_t element_size, const Extent3& extent, int dimensions,
                const void* host_data, const Extent3& page_extent);
  ~BufferStorage();
  BufferStorage(const BufferStorage&) = delete;
  BufferStorage& operator=(const BufferStorage&) = delete;

  const BufferDesc& desc() const { return desc_; }
  int dimensions() const { return dimensions_; }
  std::size_t bytes() const { return buffer_bytes(desc_); }

  // Binds to `runtime` (first use) or checks that it is the bound one. `what` names the use
  // in errors.
  void bind(const std::weak_ptr<RuntimeState>& runtime, const char* what);
  // The bound runtime (nullptr when unbound); error when it has been destroyed.
  std::shared_ptr<RuntimeState> bound_runtime(const char* what) const;
  BufferId id() const;  // valid once bound

  // The host copy, allocated (uninitialized) on first call.
  void* host_memory();
  // The allocation at `location` (host memory for host_location), allocated on `device`
  // on first call.
  void* allocation(LocationId location, RuntimeState& runtime);

  // A host view of the still unbound buffer: its host copy holds valid data when the view
  // writes, and binding records the view (while `release` is not done) so that work
  // submitted meanwhile waits for it.
  void add_unbound_view(const AccessRange& range, AccessMode mode,
                        std::shared_ptr<TaskEvent> release);

  // Remembers a task that uses the buffer with `mode`; wait_for_tasks() waits for all of
  // them. Returns the last task that wrote the buffer when it failed and this access does
  // not overwrite the whole buffer (nullptr otherwise): the access depends on it, so that a
  // failed write fails what reads the buffer after it, even once the memory model has
  // forgotten the task (it forgets done tasks), instead of letting it read stale data.
  std::shared_ptr<TaskEvent> add_user(std::shared_ptr<TaskEvent> task, AccessMode mode,
                                      bool whole_buffer);
  void wait_for_tasks() noexcept;

  // The Buffer (its last handle) has been destroyed: command graphs using the storage are
  // invalid (graph.hpp).
  void mark_handle_destroyed() noexcept { handle_destroyed_.store(true); }
  bool handle_destroyed() const noexcept { return handle_destroyed_.load(); }

  // Forgets the memory-model buffer and frees the device allocations (once).
  void release(RuntimeState& runtime) noexcept;

 private:
  BufferDesc desc_;
  int dimensions_;

  // Guards the members below but bound_, id_, runtime_ and host_, which are set once (under
  // it) and then read without it: bound_ is stored (release) after id_ and runtime_, which
  // do not change afterwards; host_ is the host copy's address once allocated.
  mutable std::mutex mutex_;
  std::atomic<bool> bound_{false};
  std::atomic<BufferId> id_{0};
  std::weak_ptr<RuntimeState> runtime_;
  bool released_ = false;
  std::atomic<bool> handle_destroyed_{false};
  bool host_valid_ = false;  // unbound: the host copy holds data (host data or a write)
  std::atomic<std::byte*> host_{nullptr};
  std::array<void*, max_locations> allocations_{};  // by location; [0] unused (host_)
  PendingEvents users_;
  std::shared_ptr<TaskEvent> last_writer_;  // the last task recorded as writing the buffer
  struct UnboundView {
    AccessRange range;
    AccessMode mode;
    std::shared_ptr<TaskEvent> release;
  };
  std::vector<UnboundView> unbound_views_;
};

}  // namespace plexus::detail
