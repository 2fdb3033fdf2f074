// StagingPool (backends/mpi/worker): the host buffers a worker stages a GPU's copies through
// are reused, not allocated (pinned) again for every copy; what it keeps is bounded; the
// buffers hold what is written and may outlive the pool. On the real host and OpenCL (PoCL)
// backends (a GPU's page-locked buffers: bench/gpu/mpi_checks.sh).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "backend_loader.hpp"
#include "worker/staging_pool.hpp"

namespace {

using plexus::mpi::StagingPool;

void check_pool(plexus::Device& device) {
  INFO("device " << device.info().name);
  constexpr std::size_t kib = 1024;
  SECTION("a released buffer is reused for a copy of the same size class") {
    StagingPool pool(device);
    {
      auto first = pool.acquire(100 * kib);
      std::memset(first.get(), 0x5a, 100 * kib);
    }
    auto again = pool.acquire(120 * kib);  // same power of two: 128 KiB
    CHECK(pool.allocations() == 1);
    std::memset(again.get(), 0x11, 120 * kib);
    CHECK(again.get()[120 * kib - 1] == std::byte{0x11});
  }
  SECTION("buffers in use at once are distinct") {
    StagingPool pool(device);
    auto a = pool.acquire(64 * kib), b = pool.acquire(64 * kib);
    CHECK(a.get() != b.get());
    CHECK(pool.allocations() == 2);
  }
  SECTION("what the pool keeps is bounded") {
    StagingPool pool(device, 256 * kib);
    {
      auto a = pool.acquire(256 * kib), b = pool.acquire(256 * kib);
    }  // one is kept, the other freed
    auto c = pool.acquire(256 * kib), d = pool.acquire(256 * kib);
    CHECK(pool.allocations() == 3);
  }
  SECTION("a buffer may outlive its pool") {
    std::shared_ptr<std::byte[]> kept;
    {
      StagingPool pool(device);
      kept = pool.acquire(kib);
    }
    kept.get()[0] = std::byte{1};
  }
}

}  // namespace

TEST_CASE("a worker's staging pool on a host device", "[mpi][staging]") {
  const auto backend = plexus::test::load_backend("host");
  REQUIRE(backend->device_count() > 0);
  check_pool(backend->device(0));
}

TEST_CASE("a worker's staging pool on an OpenCL device", "[mpi][staging]") {
  const auto backend = plexus::test::load_backend("opencl");
  if (!backend->status().available || backend->device_count() == 0) {
    WARN("skipped: no OpenCL device (" << backend->status().reason << ")");
    return;
  }
  check_pool(backend->device(0));
}
