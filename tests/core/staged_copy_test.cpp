// The core's staged device -> device copies (core/src/api/staged_copy.hpp, compiled into
// this test): the split of a copy into pieces that fit a staging chunk, the double-buffered
// copy through two fake queues, and the staging pool's reuse of host memory.
#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "plexus/copy_validation.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "staged_copy.hpp"
#include "staging_pool.hpp"

namespace {

using plexus::CopyLayout;
using plexus::detail::split_for_staging;

CopyLayout rect(std::size_t offset, std::size_t row_bytes, std::size_t rows, std::size_t slices,
                std::size_t row_pitch, std::size_t slice_pitch) {
  return {offset, row_bytes, rows, slices, row_pitch, slice_pitch};
}

// Marks the bytes `layout` touches, counting each touch.
void mark(std::vector<int>& touched, const CopyLayout& layout) {
  for (std::size_t s = 0; s < layout.slices; ++s)
    for (std::size_t r = 0; r < layout.rows; ++r)
      for (std::size_t b = 0; b < layout.row_bytes; ++b)
        ++touched.at(layout.offset + s * layout.slice_pitch + r * layout.row_pitch + b);
}

void check_split(const CopyLayout& layout, std::size_t chunk) {
  INFO("layout offset " << layout.offset << " row_bytes " << layout.row_bytes << " rows "
                        << layout.rows << " slices " << layout.slices << ", chunk " << chunk);
  const auto pieces = split_for_staging(layout, chunk);
  std::vector<int> expected(plexus::copy_extent(layout), 0), got(expected.size(), 0);
  mark(expected, layout);
  std::size_t bytes = 0;
  for (const CopyLayout& piece : pieces) {
    REQUIRE(plexus::copy_extent(piece) - piece.offset <= chunk);
    int anything = 0;
    REQUIRE_NOTHROW(plexus::validate_copy(piece, &anything, &anything, SIZE_MAX, "piece"));
    mark(got, piece);
    bytes += piece.bytes();
  }
  CHECK(bytes == layout.bytes());
  CHECK(got == expected);  // every byte of the region once, nothing else
}

// "Device memory" in host vectors; copies run at once; on_complete calls back at once.
class FakeQueue final : public plexus::DeviceQueue {
 public:
  void copy_to_device(void* allocation, const void* host_base, const CopyLayout& layout) override {
    if (fail_writes) throw plexus::error(plexus::error_category::device, "write failed");
    copy(static_cast<char*>(allocation), static_cast<const char*>(host_base), layout);
    ++writes;
  }
  void copy_to_host(void* host_base, const void* allocation, const CopyLayout& layout) override {
    if (fail_reads) throw plexus::error(plexus::error_category::device, "read failed");
    copy(static_cast<char*>(host_base), static_cast<const char*>(allocation), layout);
    ++reads;
  }
  void launch(const plexus::DeviceKernel&, const plexus::NdRange&,
              std::span<const plexus::KernelArgument>) override {}
  void wait() override {}
  void on_complete(std::function<void(std::exception_ptr)> done) override { done(nullptr); }

  bool fail_reads = false, fail_writes = false;
  int reads = 0, writes = 0;

 private:
  static void copy(char* to, const char* from, const CopyLayout& layout) {
    for (std::size_t s = 0; s < layout.slices; ++s)
      for (std::size_t r = 0; r < layout.rows; ++r) {
        const std::size_t at = layout.offset + s * layout.slice_pitch + r * layout.row_pitch;
        std::memcpy(to + at, from + at, layout.row_bytes);
      }
  }
};

// A device whose only operations are host memory (counted).
class HostMemoryDevice final : public plexus::Device {
 public:
  HostMemoryDevice() { info_.name = "host memory"; }
  const plexus::DeviceInfo& info() const override { return info_; }
  plexus::Backend& backend() const override { throw std::logic_error("no backend"); }
  void* allocate_host(std::size_t bytes) override {
    ++allocations;
    return Device::allocate_host(bytes);
  }
  void deallocate_host(void* memory) noexcept override {
    if (memory) ++releases;
    Device::deallocate_host(memory);
  }
  int allocations = 0, releases = 0;

 private:
  plexus::DeviceInfo info_;
};

}  // namespace

TEST_CASE("split_for_staging covers a copy exactly with pieces that fit the chunk",
          "[core][devices]") {
  check_split(CopyLayout::contiguous(3, 20), 8);
  check_split(CopyLayout::contiguous(0, 16), 16);  // fits: one piece
  CHECK(split_for_staging(CopyLayout::contiguous(0, 16), 16).size() == 1);
  CHECK(split_for_staging(CopyLayout::contiguous(0, 17), 16).size() == 2);
  // 2D: groups of rows; rows wider than the chunk in parts.
  check_split(rect(5, 10, 7, 1, 16, 0), 40);
  check_split(rect(5, 10, 7, 1, 16, 0), 10);
  check_split(rect(0, 30, 4, 1, 32, 0), 8);
  // 3D: groups of slices; slices larger than the chunk by rows; pitches not multiples.
  check_split(rect(7, 6, 3, 5, 8, 30), 64);
  check_split(rect(7, 6, 3, 5, 8, 30), 20);
  check_split(rect(7, 6, 3, 5, 8, 30), 4);
  check_split(rect(0, 64, 8, 8, 128, 2048), 1000);
  CHECK(split_for_staging(CopyLayout::contiguous(0, 0), 8).empty());
}

TEST_CASE("copy_staged moves a region through two chunks, reading ahead of writing",
          "[core][devices]") {
  HostMemoryDevice device;
  plexus::detail::StagingPool pool;
  constexpr std::size_t chunk = plexus::detail::StagingPool::chunk_bytes;
  SECTION("contiguous, several chunks") {
    const std::size_t bytes = 2 * chunk + 12345;
    std::vector<char> source(bytes + 100), target(bytes + 100, 'x');
    for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<char>(i * 7 + 1);
    FakeQueue from, to;
    const CopyLayout layout = CopyLayout::contiguous(50, bytes);
    {
      const auto lease = pool.acquire(device);
      plexus::detail::copy_staged(from, source.data(), to, target.data(), layout, lease);
    }
    CHECK(from.reads == 3);
    CHECK(to.writes == 3);
    for (std::size_t i = 0; i < target.size(); ++i) {
      const bool inside = i >= 50 && i < 50 + bytes;
      if (target[i] != (inside ? source[i] : 'x')) FAIL("byte " << i << " is wrong");
    }
  }
  SECTION("a 3D box larger than a chunk") {
    const CopyLayout layout = rect(64, 3000, 1500, 3, 4096, 1600 * 4096);
    std::vector<char> source(plexus::copy_extent(layout) + 64), target(source.size(), 'x');
    for (std::size_t i = 0; i < source.size(); ++i) source[i] = static_cast<char>(i % 251);
    FakeQueue from, to;
    {
      const auto lease = pool.acquire(device);
      plexus::detail::copy_staged(from, source.data(), to, target.data(), layout, lease);
    }
    std::vector<int> inside(source.size(), 0);
    mark(inside, layout);
    for (std::size_t i = 0; i < target.size(); ++i)
      if (target[i] != (inside[i] ? source[i] : 'x')) FAIL("byte " << i << " is wrong");
    CHECK(from.reads > 1);
  }
  SECTION("a failing queue's error comes out; the chunks go back to the pool") {
    std::vector<char> source(3 * chunk), target(3 * chunk);
    FakeQueue from, to;
    to.fail_writes = true;
    {
      const auto lease = pool.acquire(device);
      CHECK_THROWS_WITH(plexus::detail::copy_staged(from, source.data(), to, target.data(),
                                                    CopyLayout::contiguous(0, 3 * chunk), lease),
                        Catch::Contains("write failed"));
    }
    from.fail_reads = true;
    to.fail_writes = false;
    const auto lease = pool.acquire(device);
    CHECK_THROWS_WITH(plexus::detail::copy_staged(from, source.data(), to, target.data(),
                                                  CopyLayout::contiguous(0, 3 * chunk), lease),
                      Catch::Contains("read failed"));
  }
  // Leases reuse the chunks: two per concurrent lease, allocated once.
  CHECK(device.allocations == 2);
  {
    const auto first = pool.acquire(device);
    const auto second = pool.acquire(device);
    CHECK(first.chunk(0) != second.chunk(0));
  }
  CHECK(device.allocations == 4);
  pool.clear();
  CHECK(device.releases == 4);
}

TEST_CASE("device copy counters add up direct and staged copies", "[core][devices]") {
  plexus::detail::DeviceCopyCounters counters;
  counters.count_direct(100);
  counters.count_direct(28);
  counters.count_staged(1000, true);
  counters.count_staged(24, false);
  const plexus::DeviceCopyStats stats = counters.snapshot();
  CHECK(stats.direct_copies == 2);
  CHECK(stats.direct_bytes == 128);
  CHECK(stats.staged_copies == 2);
  CHECK(stats.staged_bytes == 1024);
  CHECK(stats.pinned_staged_bytes == 1000);
}
