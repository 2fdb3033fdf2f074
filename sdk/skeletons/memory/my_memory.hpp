// MyMemoryModel: skeleton of a Plexus memory model (buffer state and page tracking).
// Interface: plexus/memory_model.hpp.
//
// Fill in plan_access(): for an access by `task` to `range` of `buffer` at `location`,
// return (1) the earlier accesses it conflicts with (a write conflicts with every
// earlier access of an overlapping range, a read with earlier overlapping writes) and
// (2) the copies that make the range valid at `location` first, then record the access
// (a write makes the range valid only at `location`). AccessMode::discard_write never
// needs copies. The memory model only plans: the scheduler runs the copies.
//
// Thread-safety (the contract): calls on the same buffer are serialised by the memory
// model; calls on different buffers may run concurrently. Here one mutex guards the table.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

#include "plexus/memory_model.hpp"
#include "plexus/plugin_context.hpp"

namespace my_memory {

class MyMemoryModel final : public plexus::MemoryModel {
 public:
  explicit MyMemoryModel(plexus::PluginContext& context);

  plexus::BufferId create_buffer(const plexus::BufferDesc& desc) override;
  void destroy_buffer(plexus::BufferId buffer) override;
  plexus::AccessPlan plan_access(plexus::BufferId buffer, const plexus::AccessRange& range,
                                 plexus::AccessMode mode, plexus::LocationId location,
                                 std::shared_ptr<plexus::TaskEvent> task) override;

 private:
  struct BufferState {
    plexus::BufferDesc desc;
    // TODO: your tracking state: valid ranges per location, the last writer and the
    // readers since, per page or per range.
  };

  std::mutex mutex_;  // guards buffers_ and next_id_
  std::unordered_map<plexus::BufferId, BufferState> buffers_;
  plexus::BufferId next_id_ = 1;
};

}  // namespace my_memory
