#include "my_memory.hpp"

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
  if (desc.element_size == 0 || desc.extent[0] == 0 || desc.extent[1] == 0 || desc.extent[2] == 0) {
    throw plexus::error(plexus::error_category::invalid_argument,
                        "my_memory: create_buffer: zero-sized element or extent");
  }
  std::lock_guard lock(mutex_);
  const plexus::BufferId id = next_id_++;
  buffers_.emplace(id, BufferState{desc});
  return id;
}

std::vector<plexus::LocationId> MyMemoryModel::release_buffer(plexus::BufferId buffer) {
  std::lock_guard lock(mutex_);
  if (buffers_.erase(buffer) == 0) {
    throw plexus::error(
        plexus::error_category::invalid_argument,
        "my_memory: release_buffer(" + std::to_string(buffer) + "): no such buffer");
  }
  return {};  // TODO: the locations where the buffer holds an allocation
}

plexus::AccessPlan MyMemoryModel::plan(const plexus::BufferAccess& access) const {
  auto it = buffers_.find(access.buffer);
  if (it == buffers_.end()) {
    throw plexus::error(plexus::error_category::invalid_argument,
                        "my_memory: no buffer " + std::to_string(access.buffer));
  }
  // TODO: check the range against it->second.desc.extent, then compute the plan.
  throw plexus::error(plexus::error_category::unsupported,
                      "my_memory: planning accesses is not implemented yet");
}

plexus::AccessPlan MyMemoryModel::preview(const plexus::BufferAccess& access) const {
  std::lock_guard lock(mutex_);
  return plan(access);
}

plexus::AccessPlan MyMemoryModel::record(const plexus::BufferAccess& access,
                                         [[maybe_unused]] std::shared_ptr<plexus::TaskEvent> task) {
  std::lock_guard lock(mutex_);
  plexus::AccessPlan result = plan(access);
  // TODO: update the state with this access by `task`, and the counters in stats_.
  ++stats_.accesses;
  return result;
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
