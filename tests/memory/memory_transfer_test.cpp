// Exact transfers and conflicts of each memory policy: whole (one page per buffer), paged
// (a fixed page grid) and exact (box sets), on the same access patterns.
#include <algorithm>

#include "memory_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

BufferCopy only_copy(const AccessPlan& plan) {
  REQUIRE(plan.copies.size() == 1);
  return plan.copies[0];
}

}  // namespace

TEST_CASE("a partial read moves the range (exact), its pages (paged) or the buffer (whole)") {
  auto exact = make_memory("exact");
  auto paged = make_memory("paged", "page_size = 256\n");
  auto whole = make_memory("whole");
  struct Expect {
    MemoryFixture* mm;
    Box3 box;
  };
  for (auto [mm, box] : {Expect{&exact, box_1d(100, 100)}, Expect{&paged, box_1d(0, 256)},
                         Expect{&whole, box_1d(0, 1024)}}) {
    const BufferId b = (*mm)->create_buffer(buffer_1d(1024, 4, true));
    BufferCopy copy =
        only_copy((*mm)->record(access_1d(b, 100, 100, AccessMode::read, 1), task("r")));
    CHECK(copy.from == host_location);
    CHECK(copy.to == 1);
    CHECK(copy.box == box);
    CHECK(copy.bytes == volume(box) * 4);
    CHECK(copy.byte_offset == box.offset[0] * 4);
    CHECK(copy.contiguous);
  }
  CHECK(exact->stats().between(0, 1).bytes == 400);
  CHECK(paged->stats().between(0, 1).bytes == 1024);
  CHECK(whole->stats().between(0, 1).bytes == 4096);
}

TEST_CASE("a partial write comes back as exactly what was written (exact)") {
  auto mm = make_memory("exact");
  const BufferId b = mm->create_buffer(buffer_1d(1000, 4, true));
  CHECK(only_copy(mm->record(access_1d(b, 0, 10, AccessMode::read_write, 1), task("rw"))).box ==
        box_1d(0, 10));
  CHECK(mm->record(access_1d(b, 500, 10, AccessMode::discard_write, 1), task("d")).copies.empty());
  // The host has everything but [0,10) and [500,510): two copies back, nothing else.
  auto back = mm->record(access_1d(b, 0, 1000, AccessMode::read, host_location), task("h"));
  REQUIRE(back.copies.size() == 2);
  CHECK(back.copies[0].box == box_1d(0, 10));
  CHECK(back.copies[1].box == box_1d(500, 10));
  CHECK(back.copies[0].from == 1);
  CHECK(mm->stats().between(1, 0).bytes == 80);
  CHECK(mm->stats().between(1, 0).copies == 2);
  CHECK(mm->stats().between(0, 1).bytes == 40);
}

TEST_CASE("exact copies only what was written of an uninitialized buffer") {
  auto mm = make_memory("exact");
  const BufferId b = mm->create_buffer(buffer_1d(100, 4, false));
  mm->record(access_1d(b, 10, 10, AccessMode::discard_write, 1), task("w"));
  BufferCopy to2 = only_copy(mm->record(access_1d(b, 0, 100, AccessMode::read, 2), task("r2")));
  CHECK(to2.from == 1);
  CHECK(to2.box == box_1d(10, 10));
  // Valid on 1 and 2: the lower location is the source.
  BufferCopy to_host =
      only_copy(mm->record(access_1d(b, 0, 100, AccessMode::read, host_location), task("h")));
  CHECK(to_host.from == 1);
  CHECK(to_host.bytes == 40);
  CHECK(mm->stats().bytes() == 80);
}

TEST_CASE("whole moves the whole buffer for the same partial write") {
  auto mm = make_memory("whole");
  const BufferId b = mm->create_buffer(buffer_1d(1000, 4, true));
  CHECK(only_copy(mm->record(access_1d(b, 0, 10, AccessMode::read_write, 1), task("rw"))).bytes ==
        4000);
  auto back = mm->record(access_1d(b, 0, 10, AccessMode::read, host_location), task("h"));
  CHECK(only_copy(back).bytes == 4000);
  CHECK(mm->stats().bytes() == 8000);
}

TEST_CASE("a partial discard_write copies nothing it overwrites") {
  // exact: nothing at all. paged and whole keep page state: the rest of a partially
  // discarded page is copied (it would be lost otherwise), never the discarded part.
  auto exact = make_memory("exact");
  auto paged = make_memory("paged", "page_size = 256\n");
  auto whole = make_memory("whole");
  auto discard = [](MemoryFixture& mm) {
    const BufferId b = mm->create_buffer(buffer_1d(1024, 4, true));
    return mm->record(access_1d(b, 0, 300, AccessMode::discard_write, 1), task("d"));
  };
  CHECK(discard(exact).copies.empty());
  // Page 0 is overwritten; page 1 keeps [300, 512) from the host.
  CHECK(only_copy(discard(paged)).box == box_1d(300, 212));
  CHECK(only_copy(discard(whole)).box == box_1d(300, 724));

  // Uninitialized: nothing anywhere to keep.
  for (auto* mm : {&exact, &paged, &whole}) {
    const BufferId b = (*mm)->create_buffer(buffer_1d(1024, 4, false));
    CHECK((*mm)
              ->record(access_1d(b, 0, 300, AccessMode::discard_write, 1), task("d"))
              .copies.empty());
  }
}

TEST_CASE("disjoint writers: exact never conflicts, paged only on a shared page, whole always") {
  auto run = [](MemoryFixture&& mm, std::size_t second_begin) {
    const BufferId b = mm->create_buffer(buffer_1d(1024, 4, false));
    auto w1 = task("w1");
    mm->record(access_1d(b, 0, 100, AccessMode::discard_write, 1), w1);
    auto w2 = mm->record(access_1d(b, second_begin, 100, AccessMode::read_write, 2), task("w2"));
    auto r = mm->record(access_1d(b, second_begin, 100, AccessMode::read, 1), task("r"));
    return std::pair{depends_on(w2, w1), r.dependencies.size()};
  };
  CHECK(run(make_memory("exact"), 100) == std::pair{false, std::size_t{1}});
  CHECK(run(make_memory("paged", "page_size = 128\n"), 100) == std::pair{true, std::size_t{1}});
  CHECK(run(make_memory("paged", "page_size = 128\n"), 128) == std::pair{false, std::size_t{1}});
  CHECK(run(make_memory("paged", "page_size = 100\n"), 100) == std::pair{false, std::size_t{1}});
  CHECK(run(make_memory("whole"), 900).first);
}

TEST_CASE("read-after-write, write-after-read and write-after-write at range granularity") {
  auto mm = make_memory("exact");
  const BufferId b = mm->create_buffer(buffer_1d(100, 4, false));
  auto w = task("w"), r = task("r"), w2 = task("w2");
  mm->record(access_1d(b, 0, 50, AccessMode::discard_write, 1), w);
  CHECK(mm->record(access_1d(b, 50, 50, AccessMode::read, 1), task("other half"))
            .dependencies.empty());
  auto raw = mm->record(access_1d(b, 40, 20, AccessMode::read, 1), r);
  CHECK(raw.dependencies == std::vector<std::shared_ptr<TaskEvent>>{w});
  auto war = mm->record(access_1d(b, 55, 10, AccessMode::discard_write, 2), w2);
  CHECK(depends_on(war, r));
  CHECK_FALSE(depends_on(war, w));
  auto waw = mm->record(access_1d(b, 0, 10, AccessMode::discard_write, 2), task("w3"));
  CHECK(waw.dependencies == std::vector<std::shared_ptr<TaskEvent>>{w});
}

TEST_CASE("two devices and the host: a read gathers from each source, split per source") {
  auto check = [](MemoryFixture&& mm, std::size_t expected_copies) {
    const BufferId b = mm->create_buffer(buffer_1d(1000, 8, true));
    mm->record(access_1d(b, 0, 500, AccessMode::discard_write, 1), task("left"));
    mm->record(access_1d(b, 500, 500, AccessMode::discard_write, 2), task("right"));
    auto gather = mm->record(access_1d(b, 0, 1000, AccessMode::read, host_location), task("g"));
    CHECK(gather.copies.size() == expected_copies);
    CHECK(gather.copy_bytes() == 8000);
    return mm->stats();
  };
  auto exact = check(make_memory("exact"), 2);
  CHECK(exact.between(1, 0).bytes == 4000);
  CHECK(exact.between(2, 0).bytes == 4000);
  CHECK(exact.between(0, 1).copies == 0);
  auto paged = check(make_memory("paged", "page_size = 500\n"), 2);
  CHECK(paged.between(1, 0).bytes == 4000);
  CHECK(paged.between(2, 0).bytes == 4000);
  // whole: the second discard keeps the first half by copying it 1 -> 2; all then on 2.
  auto whole = check(make_memory("whole"), 1);
  CHECK(whole.between(1, 2).bytes == 4000);
  CHECK(whole.between(2, 0).bytes == 8000);
}

TEST_CASE("3D sub-ranges: exact copies the box, paged whole pages coalesced, whole all") {
  BufferDesc desc;
  desc.element_size = 4;
  desc.extent = {8, 8, 8};
  desc.host_data_valid = true;
  const Box3 sub{{2, 2, 2}, {4, 4, 4}};

  auto exact = make_memory("exact");
  BufferCopy e =
      only_copy(exact->record({exact->create_buffer(desc), sub, AccessMode::read, 1}, task("r")));
  CHECK(e.box == sub);
  CHECK(e.bytes == 64 * 4);
  CHECK_FALSE(e.contiguous);
  CHECK(e.byte_offset == ((2 * 8 + 2) * 8 + 2) * 4);

  // Pages of 2x2x2: the sub-range is exactly 8 pages, merged into one box.
  auto paged = make_memory("paged", "page_size = [2, 2, 2]\n");
  CHECK(only_copy(paged->record({paged->create_buffer(desc), sub, AccessMode::read, 1}, task("r")))
            .box == sub);
  // A per-buffer page extent overrides the option: 4x4x4 pages, all 8 touched.
  BufferDesc big_pages = desc;
  big_pages.page_extent = {4, 4, 4};
  BufferCopy p = only_copy(
      paged->record({paged->create_buffer(big_pages), sub, AccessMode::read, 1}, task("r")));
  CHECK(p.box == Box3{{0, 0, 0}, {8, 8, 8}});
  CHECK(p.contiguous);

  auto whole = make_memory("whole");
  CHECK(only_copy(whole->record({whole->create_buffer(desc), sub, AccessMode::read, 1}, task("r")))
            .bytes == 512 * 4);
}

TEST_CASE("copies are coalesced: pages of rows become one contiguous copy") {
  BufferDesc desc;
  desc.element_size = 4;
  desc.extent = {4, 8, 1};
  desc.host_data_valid = true;
  auto paged = make_memory("paged", "page_size = [1, 8, 1]\n");
  const BufferId b = paged->create_buffer(desc);
  BufferCopy rows =
      only_copy(paged->record({b, {{1, 2, 0}, {2, 3, 1}}, AccessMode::read, 1}, task("r")));
  CHECK(rows.box == Box3{{1, 0, 0}, {2, 8, 1}});
  CHECK(rows.contiguous);
  CHECK(rows.byte_offset == 8 * 4);
  // The other rows: two separate boxes (0 and 3), not one.
  auto rest = paged->record({b, {{0, 0, 0}, {4, 8, 1}}, AccessMode::read, 1}, task("all"));
  CHECK(rest.copies.size() == 2);

  // exact: a hole filled later is one copy; reads that meet are merged.
  auto exact = make_memory("exact");
  const BufferId x = exact->create_buffer(buffer_1d(100, 1, true));
  exact->record(access_1d(x, 0, 10, AccessMode::read, 1), task("a"));
  exact->record(access_1d(x, 20, 10, AccessMode::read, 1), task("b"));
  CHECK(only_copy(exact->record(access_1d(x, 0, 30, AccessMode::read, 1), task("c"))).box ==
        box_1d(10, 10));
  CHECK(only_copy(exact->record(access_1d(x, 0, 100, AccessMode::read, 1), task("d"))).box ==
        box_1d(30, 70));
}

TEST_CASE("memory/paged reads its page_size option and refuses bad ones") {
  CHECK_NOTHROW(make_memory("paged", "page_size = 64\n"));
  CHECK_NOTHROW(make_memory("paged", "page_size = [64, 64]\n"));
  for (const char* bad : {"page_size = 0\n", "page_size = [1, 2, 3, 4]\n", "page_size = []\n",
                          "page_size = [4, -1]\n", "page_size = \"big\"\n"}) {
    INFO(bad);
    try {
      make_memory("paged", bad);
      FAIL_CHECK("accepted");
    } catch (const plexus::error& e) {
      CHECK(e.category() == error_category::config);
      CHECK_THAT(e.what(), Catch::Matchers::Contains("memory.paged.page_size"));
    }
  }
}

TEST_CASE("memory/paged: what an access moves follows the pages touched, not the buffer") {
  // 2^18 pages of one element, 50 000 scattered one-page accesses on two devices: each
  // moves at most its one page. The work per access (runs visited, not pages or runs of
  // the buffer) is counted by PageTracker's own test (page_tracker_test.cpp), not timed.
  auto mm = make_memory("paged", "page_size = 1\n");
  const BufferId b = mm->create_buffer(buffer_1d(std::size_t{1} << 18, 4, true));
  constexpr std::uint64_t accesses = 50000;
  std::size_t most = 0;  // bytes one access moved
  for (std::size_t i = 0; i < accesses; ++i) {
    const std::size_t at = (i * 7919) % (std::size_t{1} << 18);
    auto t = task("t");
    auto plan = mm->record(
        access_1d(b, at, 1, i % 3 ? AccessMode::read : AccessMode::read_write, 1 + i % 2), t);
    most = std::max(most, plan.copy_bytes());
    t->mark_running();
    t->mark_complete();
  }
  CHECK(most == 4);  // one page
  const MemoryStats stats = mm->stats();
  CHECK(stats.accesses == accesses);
  CHECK(stats.copies() > 0);
  CHECK(stats.copies() <= accesses);
  CHECK(stats.bytes() == 4 * stats.copies());
}
