// PageTracker: a BufferTracker over a fixed 3D grid of pages (AdaptiveCpp's model). Per
// page: a bit mask of the locations holding it up to date, the last writer and the readers
// since. Every query and update visits only the pages the access touches, never the whole
// grid. memory/whole uses one page per buffer; memory/paged a configured page extent.
//
// Page granularity: conflicts and transfers are by page. A page that is not up to date at
// the accessing location is copied whole, except the part a discard_write overwrites (a
// partial discard copies the rest of the page, which would be lost otherwise).
#pragma once

#include <array>

#include "buffer_tracker.hpp"

namespace plexus::memory {

class PageTracker final : public BufferTracker {
 public:
  // `page_extent`: elements per dimension, non-zero (clipped to the buffer's extent).
  PageTracker(const BufferDesc& desc, const Extent3& page_extent);

  Box3 footprint(const Box3& range) const override;
  void conflicts(const Box3& range, bool writes,
                 std::vector<std::shared_ptr<TaskEvent>>& out) const override;
  void copies(const Box3& range, AccessMode mode, LocationId to,
              std::vector<SourcedBox>& out) const override;
  void record(const Box3& range, AccessMode mode, LocationId at,
              const std::vector<SourcedBox>& copies,
              const std::shared_ptr<TaskEvent>& task) override;

  const Extent3& page_extent() const { return page_; }

 private:
  struct Page {
    std::uint64_t valid = 0;  // one bit per location
    std::shared_ptr<TaskEvent> writer;
    std::vector<std::shared_ptr<TaskEvent>> readers;  // since the last write
  };

  // The elements of the page at page coordinates `p`.
  Box3 page_box(const std::array<std::size_t, 3>& p) const;
  // Calls f(page, its page coordinates) for every page `range` touches, slowest first.
  template <class Pages, class F>
  static void for_each_page(Pages& self, const Box3& range, F&& f);

  Extent3 extent_;
  Extent3 page_;
  Extent3 grid_;  // pages per dimension
  std::vector<Page> pages_;
};

}  // namespace plexus::memory
