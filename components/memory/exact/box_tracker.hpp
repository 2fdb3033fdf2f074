// BoxTracker: a BufferTracker over exact box sets. Per location, the set of boxes valid
// there; a history of the accesses that may still conflict with a later one (tasks not yet
// done whose ranges no later writer fully covered). No pages: no false sharing, no page
// size to tune; work per access grows with the number of boxes (fragmentation) and of
// in-flight accesses, not with the buffer's size.
#pragma once

#include "buffer_tracker.hpp"

namespace plexus::memory {

class BoxTracker final : public BufferTracker {
 public:
  explicit BoxTracker(const BufferDesc& desc);

  Box3 footprint(const Box3& range) const override { return range; }
  void conflicts(const Box3& range, AccessMode mode,
                 std::vector<std::shared_ptr<TaskEvent>>& out) const override;
  void copies(const Box3& range, AccessMode mode, LocationId to,
              std::vector<SourcedBox>& out) const override;
  void record(const Box3& range, AccessMode mode, LocationId at,
              const std::vector<SourcedBox>& copies,
              const std::shared_ptr<TaskEvent>& task) override;
  void lose(LocationId location, std::vector<Box3>& only_there) override;

 private:
  struct Entry {
    std::shared_ptr<TaskEvent> task;
    Box3 box;
    bool writes;
  };

  std::vector<BoxSet> valid_;  // by location; grows to the highest location seen
  std::vector<Entry> history_;
};

}  // namespace plexus::memory
