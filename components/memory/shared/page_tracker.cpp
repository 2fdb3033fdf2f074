#include "page_tracker.hpp"

#include <algorithm>
#include <bit>
#include <iterator>

namespace plexus::memory {

PageTracker::PageTracker(const BufferDesc& desc, const Extent3& page_extent)
    : extent_(desc.extent) {
  for (int d = 0; d < 3; ++d) {
    page_[d] = std::min(page_extent[d], extent_[d]);
    grid_[d] = (extent_[d] + page_[d] - 1) / page_[d];
  }
  pages_.resize(grid_[0] * grid_[1] * grid_[2]);
  if (desc.host_data_valid) {
    for (auto& page : pages_) page.valid = location_bit(host_location);
  }
}

Box3 PageTracker::page_box(const std::array<std::size_t, 3>& p) const {
  Box3 box;
  for (int d = 0; d < 3; ++d) {
    box.offset[d] = p[d] * page_[d];
    box.extent[d] = std::min(page_[d], extent_[d] - box.offset[d]);
  }
  return box;
}

template <class Pages, class F>
void PageTracker::for_each_page(Pages& self, const Box3& range, F&& f) {
  Extent3 lo, hi;  // page coordinates, hi exclusive
  for (int d = 0; d < 3; ++d) {
    lo[d] = range.offset[d] / self.page_[d];
    hi[d] = (range.offset[d] + range.extent[d] - 1) / self.page_[d] + 1;
  }
  for (std::size_t p0 = lo[0]; p0 < hi[0]; ++p0) {
    for (std::size_t p1 = lo[1]; p1 < hi[1]; ++p1) {
      auto* row = &self.pages_[(p0 * self.grid_[1] + p1) * self.grid_[2]];
      for (std::size_t p2 = lo[2]; p2 < hi[2]; ++p2) f(row[p2], std::array{p0, p1, p2});
    }
  }
}

Box3 PageTracker::footprint(const Box3& range) const { return round_out(range, page_, extent_); }

void PageTracker::conflicts(const Box3& range, bool writes,
                            std::vector<std::shared_ptr<TaskEvent>>& out) const {
  // Neighbouring pages mostly share their writer and readers: skip repeats.
  const Page* last = nullptr;
  for_each_page(*this, range, [&](const Page& page, const auto&) {
    if (page.writer && (!last || last->writer != page.writer)) out.push_back(page.writer);
    if (writes && !page.readers.empty() && (!last || last->readers != page.readers)) {
      out.insert(out.end(), page.readers.begin(), page.readers.end());
    }
    last = &page;
  });
}

void PageTracker::copies(const Box3& range, AccessMode mode, LocationId to,
                         std::vector<SourcedBox>& out) const {
  const std::uint64_t here = location_bit(to);
  const bool discard = mode == AccessMode::discard_write;
  std::vector<std::pair<LocationId, std::vector<Box3>>> by_source;
  std::vector<Box3> pieces;
  for_each_page(*this, range, [&](const Page& page, const std::array<std::size_t, 3>& p) {
    if (page.valid == 0 || (page.valid & here)) return;
    const Box3 box = page_box(p);
    pieces.clear();
    if (discard) {
      subtract(box, range, pieces);  // what the discard does not overwrite
      if (pieces.empty()) return;
    } else {
      pieces.push_back(box);
    }
    const auto source = static_cast<LocationId>(std::countr_zero(page.valid));
    auto it = std::find_if(by_source.begin(), by_source.end(),
                           [&](const auto& entry) { return entry.first == source; });
    if (it == by_source.end()) {
      by_source.emplace_back(source, std::vector<Box3>{});
      it = std::prev(by_source.end());
    }
    it->second.insert(it->second.end(), pieces.begin(), pieces.end());
  });
  std::sort(by_source.begin(), by_source.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [source, boxes] : by_source) {
    coalesce(boxes);
    for (const auto& box : boxes) out.push_back({source, box});
  }
}

void PageTracker::record(const Box3& range, AccessMode mode, LocationId at,
                         const std::vector<SourcedBox>&, const std::shared_ptr<TaskEvent>& task) {
  const std::uint64_t here = location_bit(at);
  const bool writing = writes(mode);
  for_each_page(*this, range, [&](Page& page, const auto&) {
    if (writing) {
      page.valid = here;  // its copies made the rest of the page valid here first
      page.writer = task;
      page.readers.clear();
      return;
    }
    if (page.valid != 0) page.valid |= here;  // copied here, unless nobody ever wrote it
    if (!page.readers.empty() && page.readers.back() == task) return;
    // Readers that are done are dropped lazily, once a page has gathered a few.
    if (page.readers.size() >= 8) {
      std::erase_if(page.readers, [](const auto& reader) { return reader->is_done(); });
    }
    page.readers.push_back(task);
  });
}

}  // namespace plexus::memory
