#include "plexus/buffer_handle.hpp"

#include "buffer_storage.hpp"
#include "command_body.hpp"
#include "held_views.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "fusion_session.hpp"
#include "runtime_state.hpp"

namespace plexus {

namespace {

std::string triple(const Extent3& values, int dimensions) {
  std::string text = "{";
  for (int d = 0; d < dimensions; ++d) {
    if (d) text += ", ";
    text += std::to_string(values[static_cast<std::size_t>(d)]);
  }
  return text + "}";
}

void check_inside(const detail::BufferStorage& storage, const AccessRange& range,
                  const char* what) {
  const Extent3& extent = storage.desc().extent;
  const int dims = storage.dimensions();
  for (std::size_t d = 0; d < 3; ++d) {
    if (range.extent[d] == 0 || range.offset[d] + range.extent[d] > extent[d]) {
      throw error(error_category::invalid_argument,
                  std::string(what) + ": the range at offset " + triple(range.offset, dims) +
                      " of extent " + triple(range.extent, dims) +
                      (range.extent[d] == 0 ? " is empty" : " lies outside the buffer of extent " +
                                                                triple(extent, dims)) +
                      " (dimension " + std::to_string(d) + ")");
    }
  }
}

}  // namespace

HostAccess::HostAccess(std::shared_ptr<detail::BufferStorage> storage, void* base,
                       std::shared_ptr<TaskEvent> release)
    : storage_(std::move(storage)), base_(base), release_(std::move(release)) {}

HostAccess& HostAccess::operator=(HostAccess&& other) noexcept {
  if (this != &other) {
    release();
    storage_ = std::move(other.storage_);
    base_ = other.base_;
    release_ = std::move(other.release_);
  }
  return *this;
}

HostAccess::~HostAccess() { release(); }

void HostAccess::release() noexcept {
  if (release_) detail::note_view_released(release_.get());
  try {
    if (release_ && !release_->is_done()) release_->mark_complete();
  } catch (const error&) {
    // Released meanwhile by the runtime's shutdown.
  }
  release_.reset();
}

void* host_base(const detail::BufferStorage& storage) {
  return const_cast<detail::BufferStorage&>(storage).host_memory();
}

BufferHandle::BufferHandle(std::size_t element_size, const Extent3& extent, int dimensions,
                           const void* host_data, const BufferOptions& options)
    : storage_(std::make_shared<detail::BufferStorage>(element_size, extent, dimensions, host_data,
                                                       options.page_extent)) {}

BufferHandle::~BufferHandle() {
  storage_->mark_handle_destroyed();
  std::shared_ptr<detail::RuntimeState> runtime;
  try {
    runtime = storage_->bound_runtime("a buffer");
  } catch (const error&) {
    return;  // its runtime is gone and released the buffer's allocations on the way out
  }
  if (runtime) {
    try {  // a kernel held for fusion that uses the buffer runs (unfused) first
      const Requirement all{storage_, AccessRange{{0, 0, 0}, storage_->desc().extent},
                            AccessMode::read_write};
      detail::cancel_conflicting(*runtime, nullptr, {&all, 1}, {}, "a buffer's destruction");
    } catch (...) {
    }
  }
  storage_->wait_for_tasks();
  if (runtime && runtime->detach(storage_.get())) storage_->release(*runtime);
}

const Extent3& BufferHandle::extent() const { return storage_->desc().extent; }
std::size_t BufferHandle::element_size() const { return storage_->desc().element_size; }
int BufferHandle::dimensions() const { return storage_->dimensions(); }

Requirement BufferHandle::require(const AccessRange& range, AccessMode mode, const char* what) const {
  check_inside(*storage_, range, what);
  return Requirement{storage_, range, mode};
}

HostAccess BufferHandle::host_access(const AccessRange& range, AccessMode mode) {
  check_inside(*storage_, range, "host_access");
  auto runtime = storage_->bound_runtime("host_access on a buffer");
  if (!runtime) {  // never used with a runtime: the host copy is all there is
    void* base = storage_->host_memory();
    auto view = TaskEvent::make("host view");
    view->mark_running();
    storage_->add_unbound_view(range, mode, view);
    detail::note_view_held(view);
    return HostAccess(storage_, base, std::move(view));
  }
  detail::CommandGroup group;
  group.runtime = runtime;
  group.requirements.push_back(Requirement{storage_, range, mode});
  detail::cancel_conflicting(*runtime, nullptr, group.requirements, {}, "a host access");
  auto view = TaskEvent::make("host view");
  auto event = TaskEvent::make("host access");
  runtime->track(event);
  auto body = std::make_shared<detail::CommandBody>(*runtime, std::move(group), event, view);
  try {
    Task task{event, {}, {}, std::move(body)};
    task.submitter_waits = true;  // this thread waits for it at once: it may run it itself
    runtime->scheduler().submit(std::move(task));
    event->wait();
  } catch (...) {
    view->mark_failed(std::current_exception());
    throw;
  }
  view->mark_running();
  runtime->attach_view(view);
  detail::note_view_held(view);
  return HostAccess(storage_, storage_->host_memory(), view);
}

void* BufferHandle::device_pointer(const std::weak_ptr<detail::RuntimeState>& runtime,
                                   Device& device) {
  storage_->bind(runtime, "device_pointer");
  auto state = detail::RuntimeState::lock(runtime, "device_pointer");
  if (!state->has_device(&device)) {
    throw error(error_category::invalid_argument,
                "device_pointer: device '" + device.info().name + "' does not belong to this runtime");
  }
  void* pointer = storage_->allocation(state->location_of(&device), *state);
  state->usm.add_buffer_pointer(pointer, storage_->bytes(), device);
  return pointer;
}

}  // namespace plexus
