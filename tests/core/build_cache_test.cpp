// BuildCache: one build per key under concurrency, shared errors, retry of spurious
// failures, LRU eviction by bytes, and counters.
#include <catch2/catch.hpp>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "plexus/build_cache.hpp"

using Cache = plexus::BuildCache<std::string, std::string>;
using Catch::Matchers::Contains;

namespace {
Cache::ValuePtr value(std::string text) { return std::make_shared<const std::string>(std::move(text)); }

// Called in a build: holds it until `n` other calls wait for it (stats().waits), so that
// they join this build instead of coming after it. No timing: the bound only turns "never"
// (a cache that lets them build instead) into a failure of the test's counts.
void hold_until_waiting(Cache& cache, std::uint64_t n) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (cache.stats().waits < n && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}
}  // namespace

TEST_CASE("many threads asking for one key build it once and share the result") {
  Cache cache;
  std::atomic<int> builds{0};
  constexpr int threads = 8;
  std::barrier start(threads);
  std::vector<Cache::ValuePtr> results(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      start.arrive_and_wait();
      results[t] = cache.get_or_build("kernel", [&] {
        ++builds;
        hold_until_waiting(cache, threads - 1);
        return value("binary");
      });
    });
  }
  for (auto& worker : workers) worker.join();
  CHECK(builds == 1);
  for (const auto& result : results) CHECK(result == results[0]);  // the same object
  const auto stats = cache.stats();
  CHECK(stats.misses == 1);
  CHECK(stats.builds == 1);
  CHECK(stats.waits == threads - 1);
  CHECK(cache.get_or_build("kernel", [] { return value("never built"); }) == results[0]);
  CHECK(cache.stats().hits == stats.hits + 1);
}

TEST_CASE("a build error reaches every waiter, and a later call builds again") {
  Cache cache;
  std::atomic<int> builds{0};
  constexpr int threads = 4;
  std::barrier start(threads);
  std::atomic<int> same_error{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      start.arrive_and_wait();
      try {
        cache.get_or_build("bad", [&]() -> Cache::ValuePtr {
          ++builds;
          hold_until_waiting(cache, threads - 1);
          throw plexus::error(plexus::error_category::build, "kernel.cl:1:1: error: nope");
        });
      } catch (const plexus::error& failure) {
        if (std::string(failure.what()) == "kernel.cl:1:1: error: nope") ++same_error;
      }
    });
  }
  for (auto& worker : workers) worker.join();
  CHECK(same_error == threads);
  CHECK(builds == 1);  // the waiters got the builder's error, they did not build
  CHECK(cache.get_or_build("bad", [] { return value("fixed"); }) != nullptr);
  CHECK(*cache.get_or_build("bad", [] { return value("not again"); }) == "fixed");
}

TEST_CASE("a waiter retries once after a failure that is not a plexus::error") {
  Cache cache;
  std::atomic<int> builds{0};
  std::barrier start(2);
  Cache::ValuePtr waiter_result;
  std::thread builder([&] {
    CHECK_THROWS_AS(cache.get_or_build("flaky",
                                       [&]() -> Cache::ValuePtr {
                                         ++builds;
                                         start.arrive_and_wait();  // the waiter goes now
                                         hold_until_waiting(cache, 1);
                                         throw std::runtime_error("out of memory, maybe");
                                       }),
                    std::runtime_error);
  });
  std::thread waiter([&] {
    start.arrive_and_wait();  // the builder is building: this call waits for it
    waiter_result = cache.get_or_build("flaky", [&] {
      ++builds;
      return value("second try");
    });
  });
  builder.join();
  waiter.join();
  REQUIRE(waiter_result != nullptr);
  CHECK(*waiter_result == "second try");
  CHECK(builds == 2);
}

TEST_CASE("finished entries are evicted least recently used first past max_bytes") {
  Cache cache(10, [](const std::string& text) { return text.size(); });
  cache.get_or_build("a", [] { return value("aaaa"); });
  cache.get_or_build("b", [] { return value("bbbb"); });
  cache.get_or_build("a", [] { return value("rebuilt"); });  // a is now the most recent
  cache.get_or_build("c", [] { return value("cccc"); });     // 12 > 10: b goes
  auto stats = cache.stats();
  CHECK(stats.evictions == 1);
  CHECK(stats.entries == 2);
  CHECK(stats.bytes == 8);
  int rebuilt = 0;
  cache.get_or_build("a", [&] { ++rebuilt; return value("x"); });
  cache.get_or_build("b", [&] { ++rebuilt; return value("bbbb"); });
  CHECK(rebuilt == 1);  // only b was gone
}

TEST_CASE("a build that returns nothing is an error, not a cached null") {
  Cache cache;
  CHECK_THROWS_WITH(cache.get_or_build("k", [] { return Cache::ValuePtr(); }),
                    Contains("returned no value"));
  CHECK(*cache.get_or_build("k", [] { return value("v"); }) == "v");
}
