#include "my_memory.hpp"

#include <algorithm>
#include <string>

#include "plexus/error.hpp"

namespace my_memory {

MyMemoryModel::MyMemoryModel([[maybe_unused]] plexus::PluginContext& context) {
  // Options come from the config's `[memory.my_memory]` table, e.g.
  //   [memory.my_memory]
  //   page_bytes = 65536
  // Read every option you support (unread keys are reported as probable typos).
}

plexus::BufferId MyMemoryModel::create_buffer(const plexus::BufferDesc& desc) {
  const auto refuse = [](const std::string& what) {
    throw plexus::error(plexus::error_category::invalid_argument, "my_memory: create_buffer: " + what);
  };
  if (desc.element_size == 0) refuse("element_size is 0");
  if (desc.extent[0] == 0 || desc.extent[1] == 0 || desc.extent[2] == 0) refuse("an extent is 0");
  const auto& page = desc.page_extent;
  const bool no_page = page[0] == 0 && page[1] == 0 && page[2] == 0;
  if (!no_page && (page[0] == 0 || page[1] == 0 || page[2] == 0))
    refuse("page_extent must be all zero or all non-zero");
  std::lock_guard lock(mutex_);
  const plexus::BufferId id = next_id_++;
  BufferState state{desc};
  if (desc.host_data_valid) state.valid = state.allocated = 1;  // the host's bit
  buffers_.emplace(id, std::move(state));
  return id;
}

std::vector<plexus::LocationId> MyMemoryModel::release_buffer(plexus::BufferId buffer) {
  std::lock_guard lock(mutex_);
  const auto it = buffers_.find(buffer);
  if (it == buffers_.end()) {
    throw plexus::error(
        plexus::error_category::invalid_argument,
        "my_memory: release_buffer: no buffer " + std::to_string(buffer));
  }
  std::vector<plexus::LocationId> locations;  // where the buffer holds an allocation
  for (plexus::LocationId l = 0; l < plexus::max_locations; ++l)
    if (it->second.allocated >> l & 1) locations.push_back(l);
  buffers_.erase(it);
  return locations;
}

namespace {

// Appends `event` unless it is done, is `self` or is listed already.
void add_dependency(std::vector<std::shared_ptr<plexus::TaskEvent>>& to,
                    const std::shared_ptr<plexus::TaskEvent>& event,
                    const std::shared_ptr<plexus::TaskEvent>& self) {
  if (!event || event == self || event->is_done()) return;
  if (std::find(to.begin(), to.end(), event) == to.end()) to.push_back(event);
}

}  // namespace

plexus::AccessPlan MyMemoryModel::plan(const plexus::BufferAccess& access,
                                       const std::shared_ptr<plexus::TaskEvent>& task) const {
  auto it = buffers_.find(access.buffer);
  if (it == buffers_.end()) {
    const bool released = access.buffer < next_id_;  // ids are never reused
    throw plexus::error(plexus::error_category::invalid_argument,
                        "my_memory: " + std::string(released ? "buffer " : "no buffer ") +
                            std::to_string(access.buffer) + (released ? " was released" : ""));
  }
  const BufferState& state = it->second;
  const auto& extent = state.desc.extent;
  if (access.location >= plexus::max_locations) {
    throw plexus::error(plexus::error_category::invalid_argument,
                        "my_memory: location " + std::to_string(access.location) +
                            " >= max_locations");
  }
  bool whole = true;
  for (int d = 0; d < 3; ++d) {
    const auto offset = access.range.offset[d], size = access.range.extent[d];
    if (size == 0 || offset > extent[d] || size > extent[d] - offset) {
      throw plexus::error(plexus::error_category::invalid_argument,
                          "my_memory: buffer " + std::to_string(access.buffer) +
                              ": the access range is empty or outside the buffer in "
                              "dimension " + std::to_string(d));
    }
    whole = whole && offset == 0 && size == extent[d];
  }
  // discard_write of the whole buffer needs no old contents; anything else does.
  const bool needs_data = !(access.mode == plexus::AccessMode::discard_write && whole);
  if (needs_data && !state.lost.empty() && task) {
    throw plexus::error(plexus::error_category::device,
                        "my_memory: buffer " + std::to_string(access.buffer) +
                            " is lost: its only valid copy was on a device that is gone (" +
                            state.lost + ")");
  }
  // TODO: your policy. Here: the whole buffer is one granule.
  const std::uint64_t here = std::uint64_t{1} << access.location;
  plexus::AccessPlan result;
  add_dependency(result.dependencies, state.writer, task);
  if (plexus::writes(access.mode)) {
    for (const auto& reader : state.readers) add_dependency(result.dependencies, reader, task);
  } else if (const auto copier = state.copied_by.find(access.location);
             copier != state.copied_by.end()) {
    add_dependency(result.dependencies, copier->second, task);
  }
  result.allocate = !(state.allocated & here);
  if (needs_data && state.valid != 0 && !(state.valid & here)) {
    plexus::LocationId from = 0;  // the lowest location holding the data (the host first)
    while (!(state.valid >> from & 1)) ++from;
    plexus::BufferCopy copy;
    copy.from = from;
    copy.to = access.location;
    copy.box = plexus::AccessRange{{0, 0, 0}, extent};
    copy.bytes = plexus::buffer_bytes(state.desc);
    result.copies.push_back(copy);
  }
  return result;
}

plexus::AccessPlan MyMemoryModel::preview(const plexus::BufferAccess& access) const {
  std::lock_guard lock(mutex_);
  return plan(access, nullptr);
}

plexus::AccessPlan MyMemoryModel::record(const plexus::BufferAccess& access,
                                         std::shared_ptr<plexus::TaskEvent> task) {
  if (!task) {
    throw plexus::error(plexus::error_category::invalid_argument, "my_memory: record: a null task");
  }
  std::lock_guard lock(mutex_);
  plexus::AccessPlan result = plan(access, task);
  BufferState& state = buffers_.at(access.buffer);
  const std::uint64_t here = std::uint64_t{1} << access.location;
  // TODO: update your tracking state with this access by `task`.
  state.allocated |= here;
  if (!result.copies.empty()) {
    state.valid |= here;
    state.copied_by[access.location] = task;
  }
  if (plexus::writes(access.mode)) {
    state.lost.clear();  // (a partial write of lost data threw in plan())
    state.valid = here;  // a write leaves the data valid only where it ran
    state.writer = task;
    state.readers.clear();
    state.copied_by.clear();
  } else {
    std::erase_if(state.readers, [](const auto& reader) { return reader->is_done(); });
    if (std::find(state.readers.begin(), state.readers.end(), task) == state.readers.end())
      state.readers.push_back(task);
  }
  ++stats_.accesses;
  stats_.dependencies += result.dependencies.size();
  if (result.allocate) {
    ++stats_.allocations;
    stats_.allocated_bytes += plexus::buffer_bytes(state.desc);
  }
  for (const auto& copy : result.copies) {
    auto counter = std::find_if(stats_.transfers.begin(), stats_.transfers.end(),
                                [&](const auto& c) { return c.from == copy.from && c.to == copy.to; });
    if (counter == stats_.transfers.end())
      counter = stats_.transfers.insert(stats_.transfers.end(), {copy.from, copy.to, 0, 0});
    ++counter->copies;
    counter->bytes += copy.bytes;
  }
  return result;
}

void MyMemoryModel::lose_location(plexus::LocationId location, const std::string& why) {
  // Host memory is never lost (the conformance suite checks this refusal).
  if (location == plexus::host_location || location >= plexus::max_locations)
    throw plexus::error(plexus::error_category::invalid_argument,
                        "my_memory: lose_location: location " + std::to_string(location) +
                            " is not a device's");
  std::lock_guard lock(mutex_);
  const std::uint64_t gone = std::uint64_t{1} << location;
  for (auto& [id, state] : buffers_) {
    if (state.valid == gone) state.lost = why;  // its only valid copy was there
    // A copy from there that had not completed: what it was to bring is lost too.
    for (const auto& [to, copier] : state.copied_by)
      if ((state.valid & gone) && copier->status() != plexus::TaskStatus::complete &&
          state.lost.empty())
        state.lost = why;
    state.valid &= ~gone;
  }
}

plexus::MemoryStats MyMemoryModel::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void MyMemoryModel::reset_stats() {
  std::lock_guard lock(mutex_);
  stats_ = {};
}

}  // namespace my_memory
