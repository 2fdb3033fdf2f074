// MyMemoryModel: skeleton of a Plexus memory model (buffer state and page tracking).
// Interface and contract: plexus/memory_model.hpp (read it first).
//
// As shipped it works with the simplest policy: the whole buffer is one granule (every
// access conflicts with every other of the buffer, copies move the whole buffer). Replace
// plan() and record() with your own granularity: for an access by a task to a range of a buffer at a location, return
// (1) the earlier accesses it conflicts with (a write conflicts with every earlier access
// of an overlapping range, a read with earlier overlapping writes), (2) whether the
// location needs its allocation, and (3) the copies that make the range valid at the
// location first; record() then updates the state (a write makes the range valid only at
// its location). AccessMode::discard_write never needs copies of the range it overwrites.
// The memory model only plans: the scheduler allocates and runs the copies.
// (Plexus's own memory/whole, paged and exact are complete examples.)
//
// Thread-safety (the contract): every member may be called from any thread; calls on one
// buffer are serialised. Here one mutex guards everything.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "plexus/memory_model.hpp"
#include "plexus/plugin_context.hpp"

namespace my_memory {

class MyMemoryModel final : public plexus::MemoryModel {
 public:
  explicit MyMemoryModel(plexus::PluginContext& context);

  plexus::BufferId create_buffer(const plexus::BufferDesc& desc) override;
  std::vector<plexus::LocationId> release_buffer(plexus::BufferId buffer) override;
  plexus::AccessPlan preview(const plexus::BufferAccess& access) const override;
  plexus::AccessPlan record(const plexus::BufferAccess& access,
                            std::shared_ptr<plexus::TaskEvent> task) override;
  void lose_location(plexus::LocationId location, const std::string& why) override;
  plexus::MemoryStats stats() const override;
  void reset_stats() override;

 private:
  struct BufferState {
    plexus::BufferDesc desc;
    // TODO: your tracking state, per page or per range instead of per buffer.
    std::uint64_t valid = 0;      // bit L: the whole buffer is valid at location L
    std::uint64_t allocated = 0;  // bit L: an allocation exists at location L
    std::string lost;             // why the data is lost (its only copy was on a lost device)
    std::shared_ptr<plexus::TaskEvent> writer;                // the last write
    std::vector<std::shared_ptr<plexus::TaskEvent>> readers;  // accesses since, copies too
    // By location: the task whose planned copy brings the data there (readers wait for it).
    std::unordered_map<plexus::LocationId, std::shared_ptr<plexus::TaskEvent>> copied_by;
  };

  // The plan for `access` by `task` (nullptr: a preview) from the current state (no
  // change); throws for a bad access.
  plexus::AccessPlan plan(const plexus::BufferAccess& access,
                          const std::shared_ptr<plexus::TaskEvent>& task) const;

  mutable std::mutex mutex_;  // guards everything below
  std::unordered_map<plexus::BufferId, BufferState> buffers_;
  plexus::BufferId next_id_ = 1;
  plexus::MemoryStats stats_;
};

}  // namespace my_memory
