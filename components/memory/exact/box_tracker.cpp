#include "box_tracker.hpp"

namespace plexus::memory {

BoxTracker::BoxTracker(const BufferDesc& desc) {
  if (desc.host_data_valid) {
    valid_.resize(host_location + 1);
    valid_[host_location].add(Box3{{0, 0, 0}, desc.extent});
  }
}

void BoxTracker::conflicts(const Box3& range, AccessMode mode,
                           std::vector<std::shared_ptr<TaskEvent>>& out) const {
  for (const auto& entry : history_) {
    if (!(writes(mode) || entry.writes) || !intersects(entry.box, range)) continue;
    if (entry.writes ? writer_matters(*entry.task, mode) : !entry.task->is_done())
      out.push_back(entry.task);
  }
}

void BoxTracker::copies(const Box3& range, AccessMode mode, LocationId to,
                        std::vector<SourcedBox>& out) const {
  if (mode == AccessMode::discard_write) return;
  BoxSet missing(range);
  if (to < valid_.size()) missing.subtract(valid_[to]);
  for (LocationId source = 0; source < valid_.size() && !missing.empty(); ++source) {
    if (source == to) continue;
    BoxSet part = missing.intersection(valid_[source]);
    for (const auto& box : part.boxes()) out.push_back({source, box});
    missing.subtract(part);
  }
  // What is left was never written: nothing to copy.
}

void BoxTracker::record(const Box3& range, AccessMode mode, LocationId at,
                        const std::vector<SourcedBox>& copies,
                        const std::shared_ptr<TaskEvent>& task) {
  if (valid_.size() <= at) valid_.resize(at + 1);
  const bool writing = writes(mode);
  if (writing) {
    for (LocationId l = 0; l < valid_.size(); ++l) {
      if (l != at) valid_[l].subtract(range);
    }
    valid_[at].add(range);
  } else {
    for (const auto& copy : copies) valid_[at].add(copy.box);
  }

  // A writer depends on every overlapping entry, so entries it covers are implied by it.
  // Failed writers stay until overwritten: their readers must fail (writer_matters).
  std::erase_if(history_, [&](const Entry& entry) {
    return entry.task->status() == TaskStatus::complete ||
           (entry.task->is_done() && !entry.writes) || (writing && contains(range, entry.box));
  });
  history_.push_back({task, range, writing});
}

void BoxTracker::lose(LocationId location, std::vector<Box3>& only_there) {
  if (location >= valid_.size()) return;
  BoxSet lost = std::move(valid_[location]);
  valid_[location] = BoxSet();
  for (LocationId l = 0; l < valid_.size() && !lost.empty(); ++l)
    if (l != location) lost.subtract(valid_[l]);
  only_there.insert(only_there.end(), lost.boxes().begin(), lost.boxes().end());
}

}  // namespace plexus::memory
