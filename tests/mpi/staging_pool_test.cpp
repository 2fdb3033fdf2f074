// StagingPool (backends/mpi): the host buffers a worker stages a GPU's copies through, and
// rank 0 packs strided regions into, are reused, not allocated (pinned) again for every copy;
// what it keeps is bounded; the buffers hold what is written and may outlive the pool. On the
// real host and OpenCL (PoCL) backends (a GPU's page-locked buffers:
// bench/gpu/mpi_checks.sh), and of plain memory (no device).
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "backend_loader.hpp"
#include "staging_pool.hpp"

namespace {

using plexus::mpi::StagingPool;

// `make(retained_bytes)`: a pool of the kind under test.
void check_pool(const std::function<std::unique_ptr<StagingPool>(std::size_t)>& make) {
  constexpr std::size_t kib = 1024;
  SECTION("a released buffer is reused for a copy of the same size class") {
    const auto pool = make(StagingPool::default_retained_bytes);
    {
      auto first = pool->acquire(100 * kib);
      std::memset(first.get(), 0x5a, 100 * kib);
    }
    auto again = pool->acquire(120 * kib);  // same power of two: 128 KiB
    CHECK(pool->allocations() == 1);
    std::memset(again.get(), 0x11, 120 * kib);
    CHECK(again.get()[120 * kib - 1] == std::byte{0x11});
  }
  SECTION("a smaller copy reuses a larger kept buffer, up to four times its size") {
    const auto pool = make(StagingPool::default_retained_bytes);
    { auto large = pool->acquire(512 * kib); }
    {
      auto smaller = pool->acquire(200 * kib);  // 256 KiB class: the 512 KiB buffer
      CHECK(pool->allocations() == 1);
      std::memset(smaller.get(), 0x22, 200 * kib);
    }
    auto small = pool->acquire(64 * kib);  // 512 KiB is over 4 x 64 KiB: a new buffer
    CHECK(pool->allocations() == 2);
  }
  SECTION("an empty request still gets a buffer (an empty region's address)") {
    const auto pool = make(StagingPool::default_retained_bytes);
    CHECK(pool->acquire(0) != nullptr);
  }
  SECTION("buffers in use at once are distinct") {
    const auto pool = make(StagingPool::default_retained_bytes);
    auto a = pool->acquire(64 * kib), b = pool->acquire(64 * kib);
    CHECK(a.get() != b.get());
    CHECK(pool->allocations() == 2);
  }
  SECTION("what the pool keeps is bounded") {
    const auto pool = make(256 * kib);
    {
      auto a = pool->acquire(256 * kib), b = pool->acquire(256 * kib);
    }  // one is kept, the other freed
    auto c = pool->acquire(256 * kib), d = pool->acquire(256 * kib);
    CHECK(pool->allocations() == 3);
  }
  SECTION("a buffer may outlive its pool") {
    std::shared_ptr<std::byte[]> kept;
    {
      const auto pool = make(StagingPool::default_retained_bytes);
      kept = pool->acquire(kib);
    }
    kept.get()[0] = std::byte{1};
  }
}

}  // namespace

TEST_CASE("a worker's staging pool on a host device", "[mpi][staging]") {
  const auto backend = plexus::test::load_backend("host");
  REQUIRE(backend->device_count() > 0);
  plexus::Device& device = backend->device(0);
  check_pool([&](std::size_t retained) { return std::make_unique<StagingPool>(device, retained); });
}

TEST_CASE("a worker's staging pool on an OpenCL device", "[mpi][staging]") {
  const auto backend = plexus::test::load_backend("opencl");
  if (!backend->status().available || backend->device_count() == 0) {
    WARN("skipped: no OpenCL device (" << backend->status().reason << ")");
    return;
  }
  plexus::Device& device = backend->device(0);
  check_pool([&](std::size_t retained) { return std::make_unique<StagingPool>(device, retained); });
}

TEST_CASE("a pool of plain memory (rank 0's packing of strided regions)", "[mpi][staging]") {
  check_pool([](std::size_t retained) { return std::make_unique<StagingPool>(retained); });
}
