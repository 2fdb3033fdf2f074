// TrackingMemoryModel: the MemoryModel contract (memory_model.hpp) over a per-buffer
// BufferTracker that holds the policy. It validates every call (clear invalid_argument
// errors), serialises calls per buffer (one mutex each; a shared mutex guards the table),
// decides allocations, filters dependencies (no self, no done task, no duplicates), adds
// dependencies on in-flight copies the access relies on, converts boxes to BufferCopy records and
// keeps the counters (per buffer, under the buffer's lock, so that record() takes no other
// lock; stats() adds them up). A policy derives from it and implements make_tracker().
// Lock order: stats_mutex_, then table_mutex_, then a buffer's mutex.
#pragma once

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "buffer_tracker.hpp"
#include "plexus/memory_model.hpp"

namespace plexus::memory {

class TrackingMemoryModel : public MemoryModel {
 public:
  // `name` as in messages, e.g. "memory/paged".
  explicit TrackingMemoryModel(std::string name);
  ~TrackingMemoryModel() override;

  BufferId create_buffer(const BufferDesc& desc) override;
  std::vector<LocationId> release_buffer(BufferId buffer) override;
  AccessPlan preview(const BufferAccess& access) const override;
  AccessPlan record(const BufferAccess& access, std::shared_ptr<TaskEvent> task) override;
  void lose_location(LocationId location, const std::string& why) override;
  MemoryStats stats() const override;
  void reset_stats() override;

 protected:
  // `desc` is validated (non-zero sizes; page_extent all zero or all non-zero).
  virtual std::unique_ptr<BufferTracker> make_tracker(const BufferDesc& desc) const = 0;
  const std::string& name() const { return name_; }

 private:
  // Data that `task`'s copies bring to `location`: valid there only once `task`'s copies ran.
  struct Arrival {
    std::shared_ptr<TaskEvent> task;
    LocationId location;
    Box3 box;
    LocationId from;
  };
  // Elements lost with a location (lose_location), and why.
  struct Lost {
    Box3 box;
    std::string why;
  };
  struct Buffer {
    std::mutex mutex;
    BufferDesc desc;
    std::uint64_t allocated = 0;  // one bit per location
    std::unique_ptr<BufferTracker> tracker;
    std::vector<Arrival> arrivals;
    std::vector<Lost> lost;
    MemoryStats stats;  // of its records since the last reset_stats()
  };

  std::shared_ptr<Buffer> find(BufferId id, const char* operation) const;
  void check(BufferId id, const Buffer& buffer, const BufferAccess& access) const;
  // Throws for an access that uses lost elements; a discard_write recovers what it covers.
  void check_lost(BufferId id, Buffer& buffer, const BufferAccess& access) const;
  AccessPlan plan(const Buffer& buffer, const BufferAccess& access, const TaskEvent* self,
                  std::vector<SourcedBox>& sourced) const;

  std::string name_;
  mutable std::shared_mutex table_mutex_;  // guards buffers_ and next_id_
  std::unordered_map<BufferId, std::shared_ptr<Buffer>> buffers_;
  BufferId next_id_ = 1;

  mutable std::mutex stats_mutex_;  // guards released_; held by stats() and reset_stats()
  MemoryStats released_;             // counters of the buffers released since the last reset
};

}  // namespace plexus::memory
