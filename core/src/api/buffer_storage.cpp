#include "buffer_storage.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "runtime_state.hpp"
#include "trace/tracer.hpp"

namespace plexus::detail {

namespace {
constexpr std::align_val_t host_alignment{64};

std::string extent_text(const Extent3& extent, int dimensions) {
  std::string text = "{";
  for (int d = 0; d < dimensions; ++d) {
    if (d) text += ", ";
    text += std::to_string(extent[static_cast<std::size_t>(d)]);
  }
  return text + "}";
}
}  // namespace

BufferStorage::BufferStorage(std::size_t element_size, const Extent3& extent, int dimensions,
                             const void* host_data, const Extent3& page_extent)
    : dimensions_(dimensions) {
  if (element_size == 0) {
    throw error(error_category::invalid_argument, "buffer: the element size is 0");
  }
  if (dimensions < 1 || dimensions > 3) {
    throw error(error_category::invalid_argument,
                "buffer: " + std::to_string(dimensions) + " dimensions (1 to 3 are supported)");
  }
  for (std::size_t d = 0; d < 3; ++d) {
    if (extent[d] == 0) {
      throw error(error_category::invalid_argument,
                  "buffer: the extent " + extent_text(extent, dimensions) + " has a zero in dimension " +
                      std::to_string(d));
    }
  }
  std::size_t total = element_size;
  for (std::size_t d = 0; d < 3; ++d) {
    if (__builtin_mul_overflow(total, extent[d], &total)) {
      throw error(error_category::invalid_argument,
                  "buffer: " + extent_text(extent, dimensions) + " elements of " +
                      std::to_string(element_size) + " bytes do not fit in memory (the size "
                      "overflows)");
    }
  }
  desc_.element_size = element_size;
  desc_.extent = extent;
  desc_.page_extent = page_extent;
  if (host_data) {
    std::memcpy(host_memory(), host_data, bytes());
    host_valid_ = true;
  }
}

BufferStorage::~BufferStorage() {
  if (std::byte* host = host_.load(std::memory_order_relaxed)) {
    ::operator delete[](host, host_alignment);
  }
}

void BufferStorage::bind(const std::weak_ptr<RuntimeState>& runtime, const char* what) {
  if (!bound_.load(std::memory_order_acquire)) {
    auto state = RuntimeState::lock(runtime, what);
    std::lock_guard lock(mutex_);
    if (!bound_.load(std::memory_order_relaxed)) {
      BufferDesc desc = desc_;
      desc.host_data_valid = host_valid_;
      const BufferId id = state->memory().create_buffer(desc);
      for (const auto& view : unbound_views_) {
        if (!view.release->is_done()) {
          state->memory().record({id, view.range, view.mode, host_location}, view.release);
        }
      }
      unbound_views_.clear();
      id_.store(id, std::memory_order_release);
      runtime_ = state;
      bound_.store(true, std::memory_order_release);
      state->attach(shared_from_this());
      return;
    }
  }
  RuntimeState::check(runtime, what);
  // Bound: runtime_ no longer changes. The same runtime (same owner) is the common case.
  if (runtime_.owner_before(runtime) || runtime.owner_before(runtime_)) {
    if (runtime_.expired()) RuntimeState::lock(runtime_, "a buffer");  // throws: it is gone
    throw error(error_category::invalid_argument,
                std::string(what) + ": the buffer belongs to another plexus::Runtime (the one "
                                    "it was first used with); create a buffer per runtime");
  }
}

std::shared_ptr<RuntimeState> BufferStorage::bound_runtime(const char* what) const {
  if (!bound_.load(std::memory_order_acquire)) return nullptr;
  return RuntimeState::lock(runtime_, what);
}

BufferId BufferStorage::id() const { return id_.load(std::memory_order_acquire); }

void* BufferStorage::host_memory() {
  if (std::byte* host = host_.load(std::memory_order_acquire)) return host;  // allocated once
  std::lock_guard lock(mutex_);
  if (std::byte* host = host_.load(std::memory_order_relaxed)) return host;
  try {
    auto* host = static_cast<std::byte*>(::operator new[](bytes(), host_alignment));
    host_.store(host, std::memory_order_release);
    return host;
  } catch (const std::bad_alloc&) {
    throw error(error_category::device, "buffer: cannot allocate " + std::to_string(bytes()) +
                                            " bytes of host memory for its host copy");
  }
}

void BufferStorage::add_unbound_view(const AccessRange& range, AccessMode mode,
                                     std::shared_ptr<TaskEvent> release) {
  std::lock_guard lock(mutex_);
  if (writes(mode)) host_valid_ = true;
  std::erase_if(unbound_views_, [](const auto& view) { return view.release->is_done(); });
  unbound_views_.push_back({range, mode, std::move(release)});
}

void* BufferStorage::allocation(LocationId location, RuntimeState& runtime) {
  if (location == host_location) return host_memory();
  std::lock_guard lock(mutex_);
  if (released_) {
    throw error(error_category::invalid_argument,
                "buffer: used after its allocations were released (its runtime shut down)");
  }
  void*& slot = allocations_.at(location);
  if (!slot) {
    Device* device = runtime.device_at(location);
    TraceSpanScope traced(TraceSpan::Kind::allocate, device->info().name,
                          "buffer " + std::to_string(id()), bytes());
    slot = device->allocate(bytes());
  }
  return slot;
}

std::shared_ptr<TaskEvent> BufferStorage::add_user(std::shared_ptr<TaskEvent> task,
                                                   AccessMode mode, bool whole_buffer) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<TaskEvent> failed;
  if (last_writer_ && last_writer_ != task && last_writer_->failed_with_data() &&
      !(mode == AccessMode::discard_write && whole_buffer)) {
    failed = last_writer_;
  }
  if (writes(mode)) last_writer_ = task;
  users_.add(std::move(task));
  return failed;
}

void BufferStorage::wait_for_tasks() noexcept {
  PendingEvents::List users;
  {
    std::lock_guard lock(mutex_);
    users = users_.take();
  }
  // The failures belong to whoever waits on those tasks' events: not observed here.
  for (const auto& user : users) user->wait_done();
}

void BufferStorage::release(RuntimeState& runtime) noexcept {
  std::lock_guard lock(mutex_);
  if (released_ || !bound_.load(std::memory_order_relaxed)) return;
  released_ = true;
  try {
    runtime.memory().release_buffer(id());
  } catch (const std::exception& failure) {
    logger().warn("buffer {}: releasing it in the memory model failed: {}", id(), failure.what());
  }
  if (std::byte* host = host_.load()) runtime.usm.remove_buffer_pointer(host);
  for (LocationId location = 1; location < max_locations; ++location) {
    if (void* allocation = allocations_[location]) {
      Device* device = runtime.device_at(location);
      TraceSpanScope traced(TraceSpan::Kind::free, device->info().name,
                            "buffer " + std::to_string(id()), bytes());
      runtime.usm.remove_buffer_pointer(allocation);
      device->deallocate(allocation);
      allocations_[location] = nullptr;
    }
  }
}

}  // namespace plexus::detail
