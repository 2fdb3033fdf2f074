// PageTracker keeps pages as runs of the same state: checked against a brute-force model of
// the contract that keeps every page (the page_tracker.hpp semantics, one page at a time),
// over random partial and full accesses in 1D, 2D and 3D, and that runs merge again.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <random>
#include <set>

#include "page_tracker.hpp"
#include "plexus/task_event.hpp"

namespace {

using namespace plexus;
using namespace plexus::memory;
using Tasks = std::vector<std::shared_ptr<TaskEvent>>;

// One state per page; every call visits each page the access touches.
class PerPageModel {
 public:
  PerPageModel(const BufferDesc& desc, const Extent3& page) : extent_(desc.extent) {
    for (int d = 0; d < 3; ++d) {
      page_[d] = std::min(page[d], extent_[d]);
      grid_[d] = (extent_[d] + page_[d] - 1) / page_[d];
    }
    pages_.resize(grid_[0] * grid_[1] * grid_[2]);
    for (auto& p : pages_) p.valid = desc.host_data_valid ? location_bit(host_location) : 0;
  }

  std::set<TaskEvent*> conflicts(const Box3& range, bool writes) {
    std::set<TaskEvent*> out;
    for_each_page(range, [&](Page& p, const Box3&) {
      // The tracker may leave out tasks already done (the model filters them afterwards).
      if (p.writer && !p.writer->is_done()) out.insert(p.writer.get());
      if (writes) {
        for (const auto& reader : p.readers) {
          if (!reader->is_done()) out.insert(reader.get());
        }
      }
    });
    return out;
  }

  std::vector<SourcedBox> copies(const Box3& range, AccessMode mode, LocationId to) {
    std::vector<std::vector<Box3>> by_source(64);
    for_each_page(range, [&](Page& p, const Box3& box) {
      if (p.valid == 0 || (p.valid & location_bit(to))) return;
      auto& boxes = by_source[std::countr_zero(p.valid)];
      if (mode == AccessMode::discard_write) {
        subtract(box, range, boxes);
      } else {
        boxes.push_back(box);
      }
    });
    std::vector<SourcedBox> out;
    for (LocationId source = 0; source < 64; ++source) {
      coalesce(by_source[source]);
      for (const auto& box : by_source[source]) out.push_back({source, box});
    }
    return out;
  }

  void record(const Box3& range, AccessMode mode, LocationId at,
              const std::shared_ptr<TaskEvent>& task) {
    for_each_page(range, [&](Page& p, const Box3&) {
      if (writes(mode)) {
        p = {location_bit(at), task, {}};
        return;
      }
      if (p.valid != 0) p.valid |= location_bit(at);
      if (!p.readers.empty() && p.readers.back() == task) return;
      if (p.readers.size() >= 8) {
        std::erase_if(p.readers, [](const auto& reader) { return reader->is_done(); });
      }
      p.readers.push_back(task);
    });
  }

 private:
  struct Page {
    std::uint64_t valid = 0;
    std::shared_ptr<TaskEvent> writer;
    Tasks readers;
  };

  template <class F>
  void for_each_page(const Box3& range, F&& f) {
    for (std::size_t p0 = 0; p0 < grid_[0]; ++p0) {
      for (std::size_t p1 = 0; p1 < grid_[1]; ++p1) {
        for (std::size_t p2 = 0; p2 < grid_[2]; ++p2) {
          const std::array<std::size_t, 3> p{p0, p1, p2};
          Box3 box;
          for (int d = 0; d < 3; ++d) {
            box.offset[d] = p[d] * page_[d];
            box.extent[d] = std::min(page_[d], extent_[d] - box.offset[d]);
          }
          if (intersects(box, range)) f(pages_[(p0 * grid_[1] + p1) * grid_[2] + p2], box);
        }
      }
    }
  }

  Extent3 extent_, page_, grid_;
  std::vector<Page> pages_;
};

BufferDesc buffer(const Extent3& extent, bool host_data) {
  BufferDesc desc;
  desc.element_size = 4;
  desc.extent = extent;
  desc.host_data_valid = host_data;
  return desc;
}

Box3 whole(const Extent3& extent) { return {{0, 0, 0}, extent}; }

Box3 random_box(const Extent3& extent, std::mt19937& random) {
  Box3 box;
  for (int d = 0; d < 3; ++d) {
    const std::size_t a = random() % extent[d], b = random() % extent[d];
    box.offset[d] = std::min(a, b);
    box.extent[d] = std::max(a, b) - box.offset[d] + 1;
  }
  return box;
}

std::set<TaskEvent*> conflicts(const PageTracker& tracker, const Box3& range, AccessMode mode) {
  Tasks out;
  tracker.conflicts(range, mode, out);
  std::set<TaskEvent*> set;
  for (const auto& task : out) {
    if (!task->is_done()) set.insert(task.get());
  }
  return set;
}

bool same(const std::vector<SourcedBox>& a, const std::vector<SourcedBox>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
    return x.from == y.from && x.box == y.box;
  });
}

// Random partial accesses (some of them full) through both; every answer compared.
void compare_with_model(const Extent3& extent, const Extent3& page, unsigned seed) {
  std::mt19937 random(seed);
  PageTracker tracker(buffer(extent, true), page);
  PerPageModel model(buffer(extent, true), page);
  Tasks tasks;
  for (int step = 0; step < 300; ++step) {
    const Box3 range = random() % 5 == 0 ? whole(extent) : random_box(extent, random);
    const auto mode = static_cast<AccessMode>(random() % 4);
    const auto at = static_cast<LocationId>(random() % 3);
    INFO("seed " << seed << " step " << step);
    CHECK(conflicts(tracker, range, mode) == model.conflicts(range, writes(mode)));
    std::vector<SourcedBox> copies;
    tracker.copies(range, mode, at, copies);
    CHECK(same(copies, model.copies(range, mode, at)));
    tasks.push_back(std::make_shared<TaskEvent>("task"));
    tracker.record(range, mode, at, copies, tasks.back());
    model.record(range, mode, at, tasks.back());
    const auto& done = tasks[random() % tasks.size()];
    if (random() % 3 == 0 && !done->is_done()) done->mark_complete();
  }
}

}  // namespace

TEST_CASE("page tracker runs answer as one state per page would, 1D/2D/3D", "[memory]") {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    compare_with_model({1000, 1, 1}, {64, 1, 1}, seed);  // last page partial
    compare_with_model({50, 70, 1}, {8, 16, 1}, seed);
    compare_with_model({20, 18, 22}, {4, 5, 6}, seed);
    compare_with_model({40, 1, 1}, {40, 1, 1}, seed);  // memory/whole: one page
  }
}

TEST_CASE("page tracker runs merge after a full access", "[memory]") {
  for (const auto& [extent, page] : {std::pair{Extent3{100000, 1, 1}, Extent3{64, 1, 1}},
                                     std::pair{Extent3{300, 200, 1}, Extent3{8, 8, 1}},
                                     std::pair{Extent3{40, 50, 60}, Extent3{4, 4, 4}}}) {
    std::mt19937 random(7);
    PageTracker tracker(buffer(extent, false), page);
    CHECK(tracker.run_count() == 1);
    Tasks tasks;
    for (int i = 0; i < 200; ++i) {
      tasks.push_back(std::make_shared<TaskEvent>("partial"));
      const auto mode = i % 2 ? AccessMode::read : AccessMode::discard_write;
      tracker.record(random_box(extent, random), mode, static_cast<LocationId>(i % 3), {},
                     tasks.back());
    }
    CHECK(tracker.run_count() > 10);
    auto full = std::make_shared<TaskEvent>("full");
    tracker.record(whole(extent), AccessMode::discard_write, 1, {}, full);
    CHECK(tracker.run_count() == 1);
    tracker.record(whole(extent), AccessMode::read, 2, {}, full);
    CHECK(tracker.run_count() == 1);
    CHECK(conflicts(tracker, whole(extent), AccessMode::read_write) ==
          std::set<TaskEvent*>{full.get()});
    std::vector<SourcedBox> copies;
    tracker.copies(whole(extent), AccessMode::read, 0, copies);
    REQUIRE(copies.size() == 1);
    CHECK(copies[0].from == 1);
    CHECK(copies[0].box == whole(extent));
  }
}

TEST_CASE("page tracker: work per access follows the runs it touches, not the buffer",
          "[memory]") {
  // 2^18 pages of one element, 50 000 scattered one-page accesses (memory/paged with
  // page_size = 1): a scan of every page or every run per access (AdaptiveCpp scans the
  // page grid) would visit billions of runs; visiting only the touched ones, a few each.
  // Counted, not timed: the count is the same on any machine under any load.
  const Extent3 extent{std::size_t{1} << 18, 1, 1};
  PageTracker tracker(buffer(extent, true), {1, 1, 1});
  constexpr std::uint64_t accesses = 50000;
  std::uint64_t most = 0;  // runs visited by one access
  for (std::uint64_t i = 0; i < accesses; ++i) {
    const std::uint64_t before = tracker.runs_visited();
    const Box3 range{{(i * 7919) % extent[0], 0, 0}, {1, 1, 1}};
    const auto mode = i % 3 ? AccessMode::read : AccessMode::read_write;
    const auto at = static_cast<LocationId>(1 + i % 2);
    auto task = std::make_shared<TaskEvent>("t");
    Tasks found;
    tracker.conflicts(range, mode, found);
    std::vector<SourcedBox> copies;
    tracker.copies(range, mode, at, copies);
    tracker.record(range, mode, at, copies, task);
    task->mark_complete();
    most = std::max(most, tracker.runs_visited() - before);
  }
  INFO("runs now: " << tracker.run_count());
  CHECK(tracker.run_count() > 10000);  // the runs a scan would visit
  CHECK(most <= 12);
  // The count is of real work: an access over every page visits every run.
  const std::uint64_t before = tracker.runs_visited();
  const std::size_t runs = tracker.run_count();
  Tasks found;
  tracker.conflicts(whole(extent), AccessMode::read, found);
  CHECK(tracker.runs_visited() - before >= runs);
}
