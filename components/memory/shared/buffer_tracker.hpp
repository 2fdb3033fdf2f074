// BufferTracker: the policy part of a memory model, one object per buffer: which parts of
// the buffer are valid at which location, and the earlier accesses that may conflict with
// a new one. TrackingMemoryModel owns one per buffer and calls it under that buffer's lock,
// after validating the access (so ranges are inside the buffer and not empty).
#pragma once

#include <memory>
#include <vector>

#include "plexus/box3.hpp"
#include "plexus/memory_model.hpp"
#include "plexus/task_event.hpp"

namespace plexus::memory {

// Whether an access with `mode` depends on `writer` (an earlier writer of its range): while
// it runs, and once it failed leaving its data suspect (TaskEvent::failed_with_data) for an
// access that uses the old contents. A writer refused before it started wrote nothing.
inline bool writer_matters(const TaskEvent& writer, AccessMode mode) {
  const TaskStatus status = writer.status();
  if (status == TaskStatus::submitted || status == TaskStatus::running) return true;
  return mode != AccessMode::discard_write && writer.failed_with_data();
}

struct SourcedBox {
  LocationId from = 0;
  Box3 box;
};

class BufferTracker {
 public:
  virtual ~BufferTracker() = default;

  // The region an access of `range` occupies: `range` rounded out to the policy's granule.
  virtual Box3 footprint(const Box3& range) const = 0;
  // Appends the tasks of recorded accesses that conflict with an access of `range` with
  // `mode` (one of the two writes, footprints overlap). May append duplicates, the task
  // itself or tasks already done: the caller filters them (leaving out those seen done
  // saves it work). A writer that failed is kept for an access that uses the old contents
  // (every mode but discard_write), so that it fails with the writer's error instead of
  // reading what the writer left (failed_writer_matters()).
  virtual void conflicts(const Box3& range, AccessMode mode,
                         std::vector<std::shared_ptr<TaskEvent>>& out) const = 0;
  // Appends the copies to `to` that an access of `range` with `mode` needs first: only data
  // valid somewhere (written or host data), none of what a discard_write overwrites; the
  // lowest valid location is the source; boxes coalesced per source, sources ascending.
  virtual void copies(const Box3& range, AccessMode mode, LocationId to,
                      std::vector<SourcedBox>& out) const = 0;
  // Records the access by `task` at `at`, after `copies` (what copies() returned) ran.
  virtual void record(const Box3& range, AccessMode mode, LocationId at,
                      const std::vector<SourcedBox>& copies,
                      const std::shared_ptr<TaskEvent>& task) = 0;
  // `location` is gone: nothing is valid there any more. Appends the boxes (in the
  // policy's granule) whose only valid copy was there.
  virtual void lose(LocationId location, std::vector<Box3>& only_there) = 0;
};

inline std::uint64_t location_bit(LocationId location) { return std::uint64_t{1} << location; }

}  // namespace plexus::memory
