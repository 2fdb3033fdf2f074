// Conformance suite for memory models: every memory plugin of this build must pass it, and
// a third-party one through the installed suite (`plexus conformance memory --plugin FILE`).
// Only what the contract in memory_model.hpp fixes for every policy is checked here; the
// exact copies and conflicts of each policy are in memory_transfer_test.cpp.
#include <atomic>
#include <thread>

#include "memory_test_support.hpp"

using namespace plexus;
using namespace plexus::test;
using Catch::Matchers::Contains;

namespace {

// The copies of a plan cover `range` exactly once and land at `to`.
void check_copies_cover(const AccessPlan& plan, const Box3& range, LocationId to) {
  BoxSet covered;
  std::size_t volume_sum = 0;
  for (const auto& copy : plan.copies) {
    CHECK(copy.to == to);
    CHECK(copy.from != to);
    volume_sum += volume(copy.box);
    covered.add(copy.box);
  }
  CHECK(covered.volume() == volume_sum);  // disjoint
  BoxSet missing(range);
  missing.subtract(covered);
  CHECK(missing.empty());
}

}  // namespace

TEST_CASE("every memory model refuses bad input with invalid_argument", "[conformance]") {
  auto names = memory_model_names();
  REQUIRE(names.size() >= expected_memory_models());
  for (const auto& name : names) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      BufferDesc zero_extent = buffer_1d(16, 4, false);
      zero_extent.extent = {16, 0, 1};
      CHECK_INVALID_ARGUMENT(mm->create_buffer(zero_extent), "extent");
      CHECK_INVALID_ARGUMENT(mm->create_buffer(buffer_1d(0, 4, false)), "extent");
      CHECK_INVALID_ARGUMENT(mm->create_buffer(buffer_1d(16, 0, false)), "element_size");
      BufferDesc bad_page = buffer_1d(16, 4, false);
      bad_page.page_extent = {4, 0, 1};
      CHECK_INVALID_ARGUMENT(mm->create_buffer(bad_page), "page_extent");

      const BufferId b = mm->create_buffer(buffer_1d(16, 4, true));
      auto t = task("t");
      CHECK_INVALID_ARGUMENT(mm->record(access_1d(b, 8, 9, AccessMode::read, 0), t),
                             "outside the buffer");
      CHECK_INVALID_ARGUMENT(mm->record(access(b, {0, 1, 0}, {1, 1, 1}, AccessMode::read, 0), t),
                             "dimension 1");
      CHECK_INVALID_ARGUMENT(mm->preview(access_1d(b, 17, 1, AccessMode::read, 0)),
                             "outside the buffer");
      // Huge offsets must not wrap around.
      CHECK_INVALID_ARGUMENT(mm->preview(access_1d(b, std::size_t(-8), 16, AccessMode::read, 0)),
                             "outside");
      CHECK_INVALID_ARGUMENT(mm->record(access_1d(b, 0, 0, AccessMode::read, 0), t), "empty");
      CHECK_INVALID_ARGUMENT(mm->record(access_1d(b, 0, 4, AccessMode::read, max_locations), t),
                             "location 64");
      CHECK_INVALID_ARGUMENT(mm->record(access_1d(b, 0, 4, AccessMode::read, 0), nullptr), "null");
      CHECK_INVALID_ARGUMENT(mm->record(access_1d(b + 100, 0, 4, AccessMode::read, 0), t),
                             "no buffer");
      CHECK_INVALID_ARGUMENT(mm->preview(access_1d(b + 100, 0, 4, AccessMode::read, 0)),
                             "no buffer");
      CHECK_INVALID_ARGUMENT(mm->release_buffer(b + 100), "no buffer");
      // Nothing was recorded by the refused calls.
      CHECK(mm->stats().accesses == 0);

      CHECK(mm->release_buffer(b) == std::vector<LocationId>{host_location});
      CHECK_INVALID_ARGUMENT(mm->record(access_1d(b, 0, 4, AccessMode::read, 0), t), "released");
    }
  }
}

TEST_CASE("every memory model allocates lazily, once, and never copies uninitialized data", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(1000, 4, false));
      auto r1 = mm->record(access_1d(b, 0, 1000, AccessMode::read, 1), task("r1"));
      CHECK(r1.allocate);
      CHECK(r1.copies.empty());
      auto r2 = mm->record(access_1d(b, 10, 20, AccessMode::read, 1), task("r2"));
      CHECK_FALSE(r2.allocate);
      CHECK(r2.copies.empty());
      auto h = mm->record(access_1d(b, 0, 1000, AccessMode::read, host_location), task("h"));
      CHECK(h.allocate);  // not created from host data: the host allocation is lazy too
      CHECK(h.copies.empty());
      auto d2 = mm->record(access_1d(b, 0, 1000, AccessMode::read_write, 2), task("d2"));
      CHECK(d2.allocate);
      CHECK(d2.copies.empty());

      auto stats = mm->stats();
      CHECK(stats.copies() == 0);
      CHECK(stats.bytes() == 0);
      CHECK(stats.allocations == 3);
      CHECK(stats.allocated_bytes == 3 * 4000);
      CHECK(mm->release_buffer(b) == std::vector<LocationId>{0, 1, 2});
    }
  }
}

TEST_CASE("every memory model moves host data once and follows the last writer", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(1024, 4, true));
      const Box3 all = box_1d(0, 1024);

      auto h0 = mm->record(access_1d(b, 0, 1024, AccessMode::read, host_location), task("h0"));
      CHECK_FALSE(h0.allocate);  // created from host data
      CHECK(h0.copies.empty());

      auto read1 = mm->record(access_1d(b, 0, 1024, AccessMode::read, 1), task("read1"));
      CHECK(read1.allocate);
      REQUIRE(read1.copies.size() == 1);
      CHECK(read1.copies[0].from == host_location);
      CHECK(read1.copies[0].to == 1);
      CHECK(read1.copies[0].box == all);
      CHECK(read1.copies[0].bytes == 4096);
      CHECK(read1.copies[0].byte_offset == 0);
      CHECK(read1.copies[0].contiguous);
      CHECK(mm->record(access_1d(b, 0, 1024, AccessMode::read, 1), task("again")).copies.empty());

      // A writer on device 2: copies first (write keeps the old contents), then it owns
      // the data: the host and device 1 copies are out of date.
      auto w2 = mm->record(access_1d(b, 0, 1024, AccessMode::write, 2), task("w2"));
      check_copies_cover(w2, all, 2);
      CHECK(w2.copies.at(0).from == host_location);  // the host first among valid sources
      auto back = mm->record(access_1d(b, 0, 1024, AccessMode::read, host_location), task("b"));
      check_copies_cover(back, all, host_location);
      for (const auto& copy : back.copies) CHECK(copy.from == 2);
      auto d1 = mm->record(access_1d(b, 0, 1024, AccessMode::read, 1), task("d1"));
      check_copies_cover(d1, all, 1);
      for (const auto& copy : d1.copies) CHECK(copy.from == host_location);

      auto stats = mm->stats();
      CHECK(stats.between(0, 1).bytes == 2 * 4096);
      CHECK(stats.between(0, 1).copies == 2);
      CHECK(stats.between(0, 2).bytes == 4096);
      CHECK(stats.between(2, 0).bytes == 4096);
      CHECK(stats.between(1, 0).copies == 0);
      CHECK(stats.bytes() == 4 * 4096);
      CHECK(stats.accesses == 6);
      CHECK(stats.allocations == 2);
      mm->reset_stats();
      CHECK(mm->stats().bytes() == 0);
      CHECK(mm->stats().transfers.empty());
    }
  }
}

TEST_CASE("every memory model: discard_write of the whole range never transfers", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(512, 8, true));
      auto d = mm->record(access_1d(b, 0, 512, AccessMode::discard_write, 3), task("d"));
      CHECK(d.allocate);
      CHECK(d.copies.empty());
      // The discarded data lives on device 3 now; the host's is out of date.
      auto h = mm->record(access_1d(b, 0, 512, AccessMode::read, host_location), task("h"));
      REQUIRE_FALSE(h.copies.empty());
      for (const auto& copy : h.copies) CHECK(copy.from == 3);
      check_copies_cover(h, box_1d(0, 512), host_location);
      CHECK(mm->stats().bytes() == 512 * 8);
    }
  }
}

TEST_CASE("every memory model orders conflicting accesses of one range", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(256, 4, false));
      const BufferId other = mm->create_buffer(buffer_1d(256, 4, false));
      auto w1 = task("w1"), r1 = task("r1"), r2 = task("r2"), w2 = task("w2"), w3 = task("w3");

      auto p_w1 = mm->record(access_1d(b, 0, 256, AccessMode::discard_write, 1), w1);
      CHECK(p_w1.dependencies.empty());
      auto p_r1 = mm->record(access_1d(b, 0, 256, AccessMode::read, 1), r1);  // RAW
      CHECK(p_r1.dependencies == std::vector<std::shared_ptr<TaskEvent>>{w1});
      auto p_r2 = mm->record(access_1d(b, 0, 128, AccessMode::read, 1), r2);  // RAW, not RAR
      CHECK(p_r2.dependencies == std::vector<std::shared_ptr<TaskEvent>>{w1});
      auto p_w2 = mm->record(access_1d(b, 0, 256, AccessMode::read_write, 1), w2);  // WAR+WAW
      CHECK(depends_on(p_w2, r1));
      CHECK(depends_on(p_w2, r2));
      CHECK(p_w2.dependencies.size() <= 3);
      auto p_w3 = mm->record(access_1d(b, 0, 256, AccessMode::write, 1), w3);  // WAW
      CHECK(p_w3.dependencies == std::vector<std::shared_ptr<TaskEvent>>{w2});

      // A task with two accesses of one buffer never depends on itself.
      auto both = task("both");
      mm->record(access_1d(b, 0, 10, AccessMode::read, 1), both);
      auto p_both = mm->record(access_1d(b, 0, 10, AccessMode::write, 1), both);
      CHECK_FALSE(depends_on(p_both, both));
      CHECK(depends_on(p_both, w3));

      // Another buffer never conflicts.
      CHECK(mm->record(access_1d(other, 0, 256, AccessMode::write, 1), task("o"))
                .dependencies.empty());

      // r1, r2, w2 (3), w3, both's read and write: eight dependencies in all.
      CHECK(mm->stats().dependencies == 8);

      // Tasks that are done are never returned (a scheduler finishes them in order).
      for (const auto& done : {w1, r1, r2, w2, w3, both}) {
        done->mark_running();
        done->mark_complete();
      }
      CHECK(mm->record(access_1d(b, 0, 256, AccessMode::write, 1), task("late"))
                .dependencies.empty());
    }
  }
}

TEST_CASE("every memory model makes readers of in-flight copies wait for them", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(100, 4, true));
      auto a = task("a");
      auto p_a = mm->record(access_1d(b, 0, 100, AccessMode::read, 1), a);
      CHECK_FALSE(p_a.copies.empty());
      // b reads on device 1 without copies: the data arrives with a's copies.
      auto p_b = mm->record(access_1d(b, 0, 100, AccessMode::read, 1), task("b"));
      CHECK(p_b.copies.empty());
      CHECK(p_b.dependencies == std::vector<std::shared_ptr<TaskEvent>>{a});
      a->mark_running();
      a->mark_complete();
      CHECK(mm->record(access_1d(b, 0, 100, AccessMode::read, 1), task("c")).dependencies.empty());
    }
  }
}

TEST_CASE("every memory model splits a copy over several sources, lowest location first", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(64, 4, false));
      mm->record(access_1d(b, 0, 64, AccessMode::discard_write, 5), task("w5"));
      mm->record(access_1d(b, 0, 64, AccessMode::read, 3), task("r3"));
      // Valid on 3 and 5: the lower one is the source.
      auto p = mm->record(access_1d(b, 0, 64, AccessMode::read, 4), task("r4"));
      REQUIRE_FALSE(p.copies.empty());
      for (const auto& copy : p.copies) CHECK(copy.from == 3);
      check_copies_cover(p, box_1d(0, 64), 4);
    }
  }
}

TEST_CASE("every memory model: preview plans without recording", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      const BufferId b = mm->create_buffer(buffer_1d(300, 2, true));
      auto w = task("w");
      mm->record(access_1d(b, 0, 300, AccessMode::discard_write, 1), w);
      const BufferAccess read2 = access_1d(b, 0, 300, AccessMode::read, 2);
      auto first = mm->preview(read2);
      auto second = mm->preview(read2);
      CHECK(first.allocate);
      CHECK(second.allocate);
      CHECK(first.copy_bytes() == 600);
      CHECK(second.copy_bytes() == 600);
      CHECK(first.dependencies == std::vector<std::shared_ptr<TaskEvent>>{w});
      CHECK(mm->stats().accesses == 1);
      CHECK(mm->stats().bytes() == 0);
      auto recorded = mm->record(read2, task("r"));
      CHECK(recorded.copy_bytes() == 600);
      CHECK(recorded.allocate);
      CHECK(mm->preview(read2).copies.empty());
    }
  }
}

TEST_CASE("every memory model covers 3D sub-ranges", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      BufferDesc desc;
      desc.element_size = 4;
      desc.extent = {8, 8, 8};
      desc.host_data_valid = true;
      const BufferId b = mm->create_buffer(desc);
      const Box3 sub{{2, 3, 1}, {4, 2, 5}};
      auto p = mm->record({b, sub, AccessMode::read, 1}, task("r"));
      check_copies_cover(p, sub, 1);
      for (const auto& copy : p.copies) {
        CHECK(copy.bytes == volume(copy.box) * 4);
        CHECK(copy.byte_offset == linear_offset(copy.box, desc.extent) * 4);
        CHECK(copy.contiguous == is_contiguous(copy.box, desc.extent));
      }
      CHECK(mm->record({b, sub, AccessMode::read, 1}, task("again")).copies.empty());
    }
  }
}

TEST_CASE("every memory model is safe under concurrent use", "[conformance]") {
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      constexpr int threads = 4, rounds = 200;
      std::atomic<int> wrong{0};
      std::vector<std::thread> pool;
      // Different buffers: each thread's plans are exactly the single-threaded ones.
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          for (int i = 0; i < rounds; ++i) {
            const BufferId b = mm->create_buffer(buffer_1d(128, 4, true));
            auto w = task("w");
            auto p1 = mm->record(access_1d(b, 0, 128, AccessMode::read_write, 1 + t), w);
            auto p2 = mm->record(access_1d(b, 0, 128, AccessMode::read, 0), task("r"));
            if (p1.copy_bytes() != 512 || p2.copy_bytes() != 512) ++wrong;
            if (p2.dependencies != std::vector<std::shared_ptr<TaskEvent>>{w}) ++wrong;
            if (mm->release_buffer(b) != std::vector<LocationId>{0, LocationId(1 + t)}) ++wrong;
          }
        });
      }
      for (auto& thread : pool) thread.join();
      CHECK(wrong == 0);
      CHECK(mm->stats().accesses == threads * rounds * 2);
      CHECK(mm->stats().bytes() == threads * rounds * 2 * 512);

      // One buffer from four threads: calls are serialised; every writer after the first
      // depends on something, and the counters add up.
      mm->reset_stats();
      const BufferId shared = mm->create_buffer(buffer_1d(1024, 4, true));
      pool.clear();
      std::atomic<int> writers_without_dependency{0};
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
          for (int i = 0; i < rounds; ++i) {
            const std::size_t begin = (i * 64) % 1024;
            auto plan =
                mm->record(access_1d(shared, begin, 64, AccessMode::read_write, t), task("rw"));
            if (plan.dependencies.empty()) ++writers_without_dependency;
            mm->preview(access_1d(shared, 0, 1024, AccessMode::read, 0));
          }
        });
      }
      for (auto& thread : pool) thread.join();
      CHECK(mm->stats().accesses == threads * rounds);
      // At most one writer per 64-element range can come first (whole: one in all).
      CHECK(writers_without_dependency <= 1024 / 64);
      auto final_read = mm->record(access_1d(shared, 0, 1024, AccessMode::read, 0), task("f"));
      CHECK_FALSE(final_read.dependencies.empty());
    }
  }
}

TEST_CASE("every memory model reports data lost with a location, and keeps the rest",
          "[conformance]") {
  const auto done = [](const std::string& label) {
    auto event = task(label);
    event->mark_running();
    event->mark_complete();
    return event;
  };
  const std::string why = "mpi: node 'vm' rank 1 failed: killed";
  for (const auto& name : memory_model_names()) {
    DYNAMIC_SECTION("memory/" << name) {
      auto mm = make_memory(name);
      // Written on device 1 only: lost with it.
      const BufferId only_there = mm->create_buffer(buffer_1d(256, 4, true));
      mm->record(access_1d(only_there, 0, 256, AccessMode::read_write, 1), done("w1"));
      // Read on device 1, valid on the host too: kept.
      const BufferId copied = mm->create_buffer(buffer_1d(256, 4, true));
      mm->record(access_1d(copied, 0, 256, AccessMode::read, 1), done("r1"));
      // Written on device 2: kept.
      const BufferId elsewhere = mm->create_buffer(buffer_1d(256, 4, true));
      mm->record(access_1d(elsewhere, 0, 256, AccessMode::read_write, 2), done("w2"));
      // Written on device 1, then a copy to the host that never completed (it failed
      // when the device went): what it was to bring is lost too, never stale.
      const BufferId in_flight = mm->create_buffer(buffer_1d(256, 4, true));
      mm->record(access_1d(in_flight, 0, 256, AccessMode::read_write, 1), done("w1b"));
      auto failed_copy = task("host read");
      mm->record(access_1d(in_flight, 0, 256, AccessMode::read, host_location), failed_copy);
      failed_copy->mark_running();
      failed_copy->mark_failed(std::make_exception_ptr(error(error_category::device, why)));

      mm->lose_location(1, why);
      mm->lose_location(1, why);  // idempotent

      for (BufferId lost : {only_there, in_flight}) {
        INFO("buffer " << lost);
        for (LocationId at : {host_location, LocationId{2}, LocationId{1}}) {
          for (int twice = 0; twice < 2; ++twice) {  // every time, not once
            try {
              mm->record(access_1d(lost, 10, 20, AccessMode::read, at), task("read lost"));
              FAIL("lost data was planned for");
            } catch (const error& e) {
              CHECK(e.category() == error_category::device);
              CHECK_THAT(e.what(), Contains("lost") && Contains("rank 1"));
            }
          }
        }
        // Written again whole (discard_write): usable again, nothing copied.
        auto rewrite = mm->record(access_1d(lost, 0, 256, AccessMode::discard_write, 2), done("dw"));
        CHECK(rewrite.copies.empty());
        auto back = mm->record(access_1d(lost, 0, 256, AccessMode::read, host_location), task("back"));
        for (const auto& copy : back.copies) CHECK(copy.from == 2);
      }
      auto kept = mm->record(access_1d(copied, 0, 256, AccessMode::read, 3), task("kept"));
      for (const auto& copy : kept.copies) CHECK(copy.from == host_location);
      auto moved = mm->record(access_1d(elsewhere, 0, 256, AccessMode::read, host_location), task("moved"));
      REQUIRE_FALSE(moved.copies.empty());
      for (const auto& copy : moved.copies) CHECK(copy.from == 2);
      CHECK_THROWS_AS(mm->lose_location(host_location, why), error);
    }
  }
}
