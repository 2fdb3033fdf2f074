// PageTracker: a BufferTracker over a fixed 3D grid of pages (AdaptiveCpp's model). Per
// page: a bit mask of the locations holding it up to date, the last writer and the readers
// since. Pages are kept in row-major order (last dimension fastest) as runs of consecutive
// pages in the same state, merged again after each update: every query and update costs
// in the runs an access touches, not its pages (a full-buffer access of a buffer last
// written whole visits one run). memory/whole uses one page per buffer; memory/paged a
// configured page extent.
//
// Page granularity: conflicts and transfers are by page. A page that is not up to date at
// the accessing location is copied whole, except the part a discard_write overwrites (a
// partial discard copies the rest of the page, which would be lost otherwise).
//
// Thread-safety: none; TrackingMemoryModel calls it under the buffer's lock.
#pragma once

#include <cstdint>
#include <map>

#include "buffer_tracker.hpp"

namespace plexus::memory {

class PageTracker final : public BufferTracker {
 public:
  // `page_extent`: elements per dimension, non-zero (clipped to the buffer's extent).
  PageTracker(const BufferDesc& desc, const Extent3& page_extent);

  Box3 footprint(const Box3& range) const override;
  void conflicts(const Box3& range, AccessMode mode,
                 std::vector<std::shared_ptr<TaskEvent>>& out) const override;
  void copies(const Box3& range, AccessMode mode, LocationId to,
              std::vector<SourcedBox>& out) const override;
  void record(const Box3& range, AccessMode mode, LocationId at,
              const std::vector<SourcedBox>& copies,
              const std::shared_ptr<TaskEvent>& task) override;
  void lose(LocationId location, std::vector<Box3>& only_there) override;

  const Extent3& page_extent() const { return page_; }
  // Runs of pages in the same state, at least one (for tests: how far runs merge).
  std::size_t run_count() const { return runs_.size(); }
  // The work done since creation, counted in runs visited (read, updated, split or merged)
  // by every query and update: what the cost of an access follows (for tests: it must stay
  // proportional to the runs an access touches, never to the buffer's pages or runs).
  std::uint64_t runs_visited() const { return runs_visited_; }

 private:
  struct Run {
    std::size_t end = 0;      // one past its last page (linear page index)
    std::uint64_t valid = 0;  // one bit per location
    std::shared_ptr<TaskEvent> writer;
    std::vector<std::shared_ptr<TaskEvent>> readers;  // since the last write
  };
  using Runs = std::map<std::size_t, Run>;  // by first page; they tile all pages

  // Calls f(first, last) for each range [first, last) of consecutive linear pages that
  // `range` touches: one per page row it crosses, fewer where it covers whole rows/planes.
  template <class F>
  void for_each_segment(const Box3& range, F&& f) const;
  // Calls f(run, first, last) for each run overlapping pages [first, last), with the overlap.
  template <class F>
  void for_each_run(std::size_t first, std::size_t last, F&& f) const;
  // Whether `range` reaches into every page of the grid.
  bool touches_every_page(const Box3& range) const;
  // The state of `run`'s pages after an access by `task` (writing or not) at location `here`.
  static void update(Run& run, bool writing, std::uint64_t here,
                     const std::shared_ptr<TaskEvent>& task);
  // Appends the elements of linear pages [first, last) as at most five boxes.
  void page_boxes(std::size_t first, std::size_t last, std::vector<Box3>& out) const;
  // The run starting at `page` (a page boundary, or the page count: end()).
  Runs::iterator split(std::size_t page);
  // Merges neighbouring runs in the same state from the run before `first` through the run
  // starting at `last`.
  void merge(std::size_t first, std::size_t last);

  Extent3 extent_;
  Extent3 page_;
  Extent3 grid_;  // pages per dimension
  Runs runs_;
  mutable std::uint64_t runs_visited_ = 0;  // runs_visited(); queries count too
};

}  // namespace plexus::memory
