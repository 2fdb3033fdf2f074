#include "page_tracker.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <iterator>

namespace plexus::memory {

namespace {

template <class Run>
bool same_state(const Run& a, const Run& b) {
  return a.valid == b.valid && a.writer == b.writer && a.readers == b.readers;
}

}  // namespace

PageTracker::PageTracker(const BufferDesc& desc, const Extent3& page_extent)
    : extent_(desc.extent) {
  for (int d = 0; d < 3; ++d) {
    page_[d] = std::min(page_extent[d], extent_[d]);
    grid_[d] = (extent_[d] + page_[d] - 1) / page_[d];
  }
  Run all;
  all.end = grid_[0] * grid_[1] * grid_[2];
  if (desc.host_data_valid) all.valid = location_bit(host_location);
  runs_.emplace(0, std::move(all));
}

template <class F>
void PageTracker::for_each_segment(const Box3& range, F&& f) const {
  Extent3 lo, hi;  // page coordinates, hi exclusive
  for (int d = 0; d < 3; ++d) {
    lo[d] = range.offset[d] / page_[d];
    hi[d] = (range.offset[d] + range.extent[d] - 1) / page_[d] + 1;
  }
  const std::size_t row = grid_[2], plane = grid_[1] * grid_[2];
  if (lo[2] == 0 && hi[2] == grid_[2]) {  // whole rows: one segment per plane, or in all
    if (lo[1] == 0 && hi[1] == grid_[1]) return f(lo[0] * plane, hi[0] * plane);
    for (std::size_t p0 = lo[0]; p0 < hi[0]; ++p0) {
      f(p0 * plane + lo[1] * row, p0 * plane + hi[1] * row);
    }
    return;
  }
  for (std::size_t p0 = lo[0]; p0 < hi[0]; ++p0) {
    for (std::size_t p1 = lo[1]; p1 < hi[1]; ++p1) {
      const std::size_t start = p0 * plane + p1 * row;
      f(start + lo[2], start + hi[2]);
    }
  }
}

template <class F>
void PageTracker::for_each_run(std::size_t first, std::size_t last, F&& f) const {
  for (auto it = std::prev(runs_.upper_bound(first)); it != runs_.end() && it->first < last; ++it) {
    ++runs_visited_;
    f(it->second, std::max(it->first, first), std::min(it->second.end, last));
  }
}

void PageTracker::page_boxes(std::size_t first, std::size_t last, std::vector<Box3>& out) const {
  // A partial row, whole rows of one plane, whole planes, whole rows, a partial row.
  const std::size_t row = grid_[2], plane = grid_[1] * grid_[2];
  while (first < last) {
    const std::array<std::size_t, 3> lo{first / plane, first % plane / row, first % row};
    std::array<std::size_t, 3> count{1, 1, row};
    const std::size_t left = last - first;
    if (lo[2] != 0 || left < row) {
      count[2] = std::min(row - lo[2], left);
    } else if (lo[1] != 0 || left < plane) {
      count[1] = std::min(grid_[1] - lo[1], left / row);
    } else {
      count = {left / plane, grid_[1], row};
    }
    Box3 box;
    for (int d = 0; d < 3; ++d) {
      box.offset[d] = lo[d] * page_[d];
      box.extent[d] = std::min((lo[d] + count[d]) * page_[d], extent_[d]) - box.offset[d];
    }
    out.push_back(box);
    first += count[0] * count[1] * count[2];
  }
}

PageTracker::Runs::iterator PageTracker::split(std::size_t page) {
  ++runs_visited_;
  auto it = std::prev(runs_.upper_bound(page));
  if (it->first == page) return it;
  if (it->second.end == page) return std::next(it);  // only at the last page: end()
  Run tail = it->second;
  it->second.end = page;
  return runs_.emplace_hint(std::next(it), page, std::move(tail));
}

void PageTracker::merge(std::size_t first, std::size_t last) {
  auto it = std::prev(runs_.upper_bound(first));
  if (it != runs_.begin()) --it;
  for (auto next = std::next(it); next != runs_.end() && next->first <= last;
       next = std::next(it)) {
    ++runs_visited_;
    if (same_state(it->second, next->second)) {
      it->second.end = next->second.end;
      runs_.erase(next);
    } else {
      it = next;
    }
  }
}

Box3 PageTracker::footprint(const Box3& range) const { return round_out(range, page_, extent_); }

void PageTracker::conflicts(const Box3& range, AccessMode mode,
                            std::vector<std::shared_ptr<TaskEvent>>& out) const {
  const bool writes = plexus::writes(mode);
  if (runs_.size() == 1) {  // all pages in one state (memory/whole, a buffer used whole)
    ++runs_visited_;
    const Run& run = runs_.begin()->second;
    if (run.writer && writer_matters(*run.writer, mode)) out.push_back(run.writer);
    if (writes) {
      for (const auto& reader : run.readers) {
        if (!reader->is_done()) out.push_back(reader);
      }
    }
    return;
  }
  // Neighbouring runs mostly share their writer and readers: skip repeats. Tasks found done
  // are left out (the common case in a chain: the previous writer has finished).
  const Run* last = nullptr;
  for_each_segment(range, [&](std::size_t first, std::size_t end) {
    for_each_run(first, end, [&](const Run& run, std::size_t, std::size_t) {
      if (run.writer && (!last || last->writer != run.writer) &&
          writer_matters(*run.writer, mode)) {
        out.push_back(run.writer);
      }
      if (writes && !run.readers.empty() && (!last || last->readers != run.readers)) {
        for (const auto& reader : run.readers) {
          if (!reader->is_done()) out.push_back(reader);
        }
      }
      last = &run;
    });
  });
}

void PageTracker::copies(const Box3& range, AccessMode mode, LocationId to,
                         std::vector<SourcedBox>& out) const {
  const std::uint64_t here = location_bit(to);
  if (runs_.size() == 1) {  // all pages in one state: up to date at `to`, or never written
    ++runs_visited_;
    const Run& run = runs_.begin()->second;
    if (run.valid == 0 || (run.valid & here)) return;
  }
  const bool discard = mode == AccessMode::discard_write;
  std::vector<std::pair<LocationId, std::vector<Box3>>> by_source;
  std::vector<Box3> boxes, pieces;
  for_each_segment(range, [&](std::size_t first, std::size_t end) {
    for_each_run(first, end, [&](const Run& run, std::size_t from, std::size_t until) {
      if (run.valid == 0 || (run.valid & here)) return;
      boxes.clear();
      page_boxes(from, until, boxes);
      pieces.clear();
      if (discard) {
        for (const auto& box : boxes) subtract(box, range, pieces);  // not overwritten
        if (pieces.empty()) return;
      } else {
        pieces.swap(boxes);
      }
      const auto source = static_cast<LocationId>(std::countr_zero(run.valid));
      auto it = std::find_if(by_source.begin(), by_source.end(),
                             [&](const auto& entry) { return entry.first == source; });
      if (it == by_source.end()) {
        by_source.emplace_back(source, std::vector<Box3>{});
        it = std::prev(by_source.end());
      }
      it->second.insert(it->second.end(), pieces.begin(), pieces.end());
    });
  });
  std::sort(by_source.begin(), by_source.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [source, source_boxes] : by_source) {
    coalesce(source_boxes);
    for (const auto& box : source_boxes) out.push_back({source, box});
  }
}

void PageTracker::record(const Box3& range, AccessMode mode, LocationId at,
                         const std::vector<SourcedBox>&, const std::shared_ptr<TaskEvent>& task) {
  const std::uint64_t here = location_bit(at);
  const bool writing = writes(mode);
  if (runs_.size() == 1 && touches_every_page(range)) {
    ++runs_visited_;
    update(runs_.begin()->second, writing, here, task);  // one run, all of it: stays one
    return;
  }
  for_each_segment(range, [&](std::size_t first, std::size_t last) {
    split(last);
    for (auto it = split(first); it != runs_.end() && it->first < last; ++it) {
      ++runs_visited_;
      update(it->second, writing, here, task);
    }
    merge(first, last);
  });
}

void PageTracker::lose(LocationId location, std::vector<Box3>& only_there) {
  const std::uint64_t gone = location_bit(location);
  const std::size_t before = only_there.size();
  for (auto& [first, run] : runs_) {
    ++runs_visited_;
    if (!(run.valid & gone)) continue;
    if (run.valid == gone) page_boxes(first, run.end, only_there);
    run.valid &= ~gone;
  }
  merge(0, runs_.rbegin()->second.end);
  std::vector<Box3> lost(only_there.begin() + static_cast<std::ptrdiff_t>(before), only_there.end());
  coalesce(lost);
  only_there.resize(before);
  only_there.insert(only_there.end(), lost.begin(), lost.end());
}

bool PageTracker::touches_every_page(const Box3& range) const {
  for (int d = 0; d < 3; ++d) {
    const bool first = range.offset[d] < page_[d];
    const bool last = range.offset[d] + range.extent[d] > (grid_[d] - 1) * page_[d];
    if (!first || !last) return false;
  }
  return true;
}

void PageTracker::update(Run& run, bool writing, std::uint64_t here,
                         const std::shared_ptr<TaskEvent>& task) {
  if (writing) {
    run.valid = here;  // its copies made the rest of its pages valid here first
    run.writer = task;
    run.readers.clear();
    return;
  }
  if (run.valid != 0) run.valid |= here;  // copied here, unless nobody ever wrote it
  if (!run.readers.empty() && run.readers.back() == task) return;
  // Readers that are done are dropped lazily, once a run has gathered a few.
  if (run.readers.size() >= 8) {
    std::erase_if(run.readers, [](const auto& reader) { return reader->is_done(); });
  }
  run.readers.push_back(task);
}

}  // namespace plexus::memory
