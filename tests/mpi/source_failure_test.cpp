// A remote->remote copy whose source dies: the destination's pull awaits data that never
// comes. Rank 0 finds the source failed (its silence past timeout_ms) and tells the other
// workers (peer_failed), which fail their transfers with it: the copy fails, naming the
// source's node, within the bound, and the destination goes on.
#include <catch2/catch.hpp>

#include <chrono>
#include <vector>

#include "backend_loader.hpp"
#include "failure_bounds.hpp"
#include "plexus/plexus.hpp"

namespace {

using namespace plexus;
using namespace std::chrono_literals;

std::vector<unsigned char> pattern(std::size_t bytes, unsigned seed) {
  std::vector<unsigned char> data(bytes);
  for (std::size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(i * 7 + seed);
  return data;
}

// Job: 1 + 2 workers; rank 1 (the source) is killed (PLEXUS_MPI_TEST_KILL=1:3) when rank 0's
// third message to it arrives: the copy's push, operation 1 of the destination's queue, whose
// pull then awaits data that never comes. Operation 2 (a copy in) waits behind it; the wait
// fails within the bound, naming the source's node; the queue goes on. `bytes`: 4 KiB (in
// eager pieces) or 64 KiB (one message).
void source_killed(std::size_t bytes) {
  const auto timeout = 3000ms;
  const auto backend = test::load_backend("mpi", "timeout_ms = 3000");
  REQUIRE(backend->device_count() == 2);
  Device& doomed = backend->device(0);
  Device& destination = backend->device(1);
  REQUIRE_THAT(doomed.info().name, Catch::Contains(" rank 1"));
  const auto data = pattern(2 * bytes, 3);
  std::vector<unsigned char> back(2 * bytes);
  void* from = doomed.allocate(bytes);  // message 2 to rank 1 (hello is 1)
  void* into = destination.allocate(2 * bytes);
  {
    auto queue = destination.create_queue();
    REQUIRE(queue->copy_from_device(into, doomed, from, CopyLayout::contiguous(0, bytes)));  // 3
    queue->copy_to_device(into, data.data(), CopyLayout::contiguous(bytes, bytes));  // behind it
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(queue->wait(), Catch::Contains("node '") &&
                                         Catch::Contains("rank 1 failed") &&
                                         Catch::Contains("(timeout 3000 ms)"));
    const double seconds = test::seconds_since(start);
    INFO("failed after " << seconds << " s; bound " << test::failure_bound(timeout).count()
                         << " ms");
    CHECK(seconds * 1000 < test::failure_bound(timeout).count());
    // The failure was reported once; the queue goes on.
    queue->copy_to_device(into, data.data(), CopyLayout::contiguous(0, 2 * bytes));
    queue->copy_to_host(back.data(), into, CopyLayout::contiguous(0, 2 * bytes));
    queue->wait();
    CHECK(back == data);
  }
  doomed.deallocate(from);
  destination.deallocate(into);
}

}  // namespace

TEST_CASE("a copy's source that dies fails the destination's pull of pieces, naming it",
          "[source_killed]") {
  source_killed(4096);
}

TEST_CASE("a copy's source that dies fails the destination's pull of one message, naming it",
          "[source_killed_large]") {
  source_killed(64 << 10);
}
