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
  std::lock_guard lock(mutex_);
  const plexus::BufferId id = next_id_++;
  buffers_.emplace(id, BufferState{desc});
  return id;
}

void MyMemoryModel::destroy_buffer(plexus::BufferId buffer) {
  std::lock_guard lock(mutex_);
  if (buffers_.erase(buffer) == 0) {
    throw plexus::error(
        plexus::error_category::invalid_argument,
        "my_memory: destroy_buffer(" + std::to_string(buffer) + "): no such buffer");
  }
}

// [[maybe_unused]] only until you fill the function in.
plexus::AccessPlan MyMemoryModel::plan_access(
    plexus::BufferId buffer, [[maybe_unused]] const plexus::AccessRange& range,
    [[maybe_unused]] plexus::AccessMode mode, [[maybe_unused]] plexus::LocationId location,
    [[maybe_unused]] std::shared_ptr<plexus::TaskEvent> task) {
  std::lock_guard lock(mutex_);
  auto it = buffers_.find(buffer);
  if (it == buffers_.end()) {
    throw plexus::error(plexus::error_category::invalid_argument,
                        "my_memory: plan_access(" + std::to_string(buffer) + "): no such buffer");
  }
  // TODO: compute the plan from it->second, then record this access.
  throw plexus::error(plexus::error_category::unsupported,
                      "my_memory: plan_access is not implemented yet");
}

}  // namespace my_memory
