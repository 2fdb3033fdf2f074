// The runtime's in-memory program cache under `[program_cache] max_bytes`: each level stays
// within the limit by evicting the least recently used entries, an evicted key is built
// again, a cached one is a hit, and values in use outlive their eviction. Host backend.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime_test_support.hpp"

using plexus::BuildCacheStats;
using plexus::test::make_runtime;

namespace {

constexpr int kernel_count = 4;

// Sources that differ only in one digit: their entries are (nearly) the same size.
std::string source(int i) {
  return "__kernel void k" + std::to_string(i) +
         "(__global int* x) { x[get_global_id(0)] += " + std::to_string(i + 1) + "; }";
}

std::vector<const BuildCacheStats*> levels(const plexus::ProgramCacheStats& stats) {
  return {&stats.programs, &stats.modules, &stats.bundles};
}

std::unique_ptr<plexus::Runtime> host_runtime(const std::string& extra = "") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"", extra);
  REQUIRE_FALSE(rt->devices().empty());
  return rt;
}

}  // namespace

TEST_CASE("an unbounded program cache (the default) evicts nothing") {
  auto rt = host_runtime();
  for (int i = 0; i < kernel_count; ++i) rt->build(source(i));
  const auto stats = rt->program_cache_stats();
  for (const BuildCacheStats* level : levels(stats)) {
    CHECK(level->evictions == 0);
    CHECK(level->entries == kernel_count);
    CHECK(level->bytes > 0);  // every entry has a real size
  }
}

TEST_CASE("[program_cache] max_bytes bounds each level, least recently used out first") {
  // The size of one entry of each level, measured without a limit.
  std::uint64_t smallest = UINT64_MAX, largest = 0;
  {
    auto rt = host_runtime();
    auto before = rt->program_cache_stats();
    for (int i = 0; i < kernel_count; ++i) {
      rt->build(source(i));
      const auto after = rt->program_cache_stats();
      const auto old_levels = levels(before), new_levels = levels(after);
      for (std::size_t l = 0; l < new_levels.size(); ++l) {
        const std::uint64_t size = new_levels[l]->bytes - old_levels[l]->bytes;
        smallest = std::min(smallest, size);
        largest = std::max(largest, size);
      }
      before = after;
    }
  }
  // Room for two entries of any level, not for three.
  REQUIRE(3 * smallest > 2 * largest);
  const std::uint64_t limit = (2 * largest + 3 * smallest) / 2;
  INFO("entry sizes " << smallest << ".." << largest << " bytes; limit " << limit);

  auto rt = host_runtime("[program_cache]\nmax_bytes = " + std::to_string(limit) + "\n");
  plexus::KernelBundle first = rt->build(source(0));
  for (int i = 1; i < kernel_count; ++i) rt->build(source(i));
  auto stats = rt->program_cache_stats();
  for (const BuildCacheStats* level : levels(stats)) {
    CHECK(level->evictions == kernel_count - 2);
    CHECK(level->entries == 2);
    CHECK(level->bytes <= limit);
  }

  // The most recent source is still cached: one lookup, nothing built.
  rt->build(source(kernel_count - 1));
  auto hit = rt->program_cache_stats();
  CHECK(hit.bundles.hits == stats.bundles.hits + 1);
  CHECK(hit.bundles.builds == stats.bundles.builds);
  CHECK(hit.programs.builds == stats.programs.builds);

  // The first was evicted at every level: a miss and a build again, within the limit.
  rt->build(source(0));
  auto rebuilt = rt->program_cache_stats();
  CHECK(rebuilt.bundles.misses == hit.bundles.misses + 1);
  CHECK(rebuilt.bundles.builds == hit.bundles.builds + 1);
  CHECK(rebuilt.programs.misses == hit.programs.misses + 1);
  CHECK(rebuilt.programs.builds == hit.programs.builds + 1);
  CHECK(rebuilt.modules.builds == hit.modules.builds + 1);
  for (const BuildCacheStats* level : levels(rebuilt)) {
    CHECK(level->evictions == kernel_count - 1);
    CHECK(level->bytes <= limit);
  }

  // A bundle whose entries were evicted still runs: eviction drops the cache's reference only.
  plexus::Queue q = rt->queue();
  std::vector<int> data(64, 10);
  {
    plexus::Buffer<int> buffer(data.data(), data.size());
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(first.kernel("k0"), plexus::Range{data.size()},
                     buffer.access(h, plexus::read_write));
    });
    buffer.copy_to(data.data());
  }
  CHECK(std::all_of(data.begin(), data.end(), [](int v) { return v == 11; }));
}
