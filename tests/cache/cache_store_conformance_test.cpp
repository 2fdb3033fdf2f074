// Conformance suite for cache stores: every cache plugin of this build must pass it, and a
// third-party one through the installed suite (`plexus conformance cache --plugin FILE`).
// Implementation-specific behaviour (eviction policy, persistence) is tested per store.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "plexus/cache_store.hpp"
#include "plexus/component_set.hpp"
#include "plexus/error.hpp"
#include "plugins_under_test.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;

namespace {

// A component set with just the named cache store, options in TOML; persistent stores
// keep their files in a temporary directory of their own.
struct StoreUnderTest {
  plexus::test::TempDir dir;
  std::unique_ptr<plexus::ComponentSet> set;
  plexus::CacheStore* cache() const { return set->cache(); }
};

std::unique_ptr<StoreUnderTest> make_store(const std::string& name, const std::string& options = "") {
  const plexus::PluginRegistry& registry =
      *plexus::test::plugins_under_test(plexus::ComponentKind::cache).registry;
  auto out = std::make_unique<StoreUnderTest>();
  std::string location;
  if (name == "disk") location = "root = \"" + (out->dir.path() / "disk").string() + "\"\n";
  if (name == "sqlite") location = "path = \"" + (out->dir.path() / "db" / "cache.sqlite").string() + "\"\n";
  auto config = plexus::Config::from_string(
      "[cache]\nuse = \"" + name + "\"\n[cache." + name + "]\n" + location + options, "cache-test.toml");
  out->set = std::make_unique<plexus::ComponentSet>(config, registry);
  return out;
}

// The build's cache stores, or the one third-party plugin under test.
std::vector<std::string> cache_store_names() {
  return plexus::test::plugins_under_test(plexus::ComponentKind::cache).names;
}

std::vector<std::byte> bytes(const std::string& text) {
  std::vector<std::byte> out;
  for (char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

plexus::CacheKey key(const std::string& image, const std::string& options = "-O2") {
  return {"device A", image, "", options};
}

}  // namespace

TEST_CASE("every cache store honours the CacheStore contract", "[conformance]") {
  auto names = cache_store_names();
  REQUIRE_FALSE(names.empty());
  for (const auto& name : names) {
    DYNAMIC_SECTION("cache/" << name) {
      auto set = make_store(name);
      plexus::CacheStore& store = *set->cache();

      CHECK_FALSE(store.load(key("k1")).has_value());
      store.store(key("k1"), bytes("binary one"));
      CHECK(store.load(key("k1")) == bytes("binary one"));

      // Keys that differ in any one field are different entries.
      CHECK_FALSE(store.load(key("k1", "-O3")).has_value());
      CHECK_FALSE(store.load({"device B", "k1", "", "-O2"}).has_value());
      CHECK_FALSE(store.load({"device A", "k1", "spec=1", "-O2"}).has_value());

      store.store(key("k1"), bytes("replaced"));
      CHECK(store.load(key("k1")) == bytes("replaced"));
      store.store(key("empty"), {});
      CHECK(store.load(key("empty")) == std::vector<std::byte>{});

      CHECK(store.erase(key("k1")));
      CHECK_FALSE(store.erase(key("k1")));
      CHECK_FALSE(store.load(key("k1")).has_value());

      plexus::CacheStats stats = store.stats();
      CHECK(stats.entries == 1);
      CHECK(stats.hits >= 3);
      CHECK(stats.misses >= 5);
      CHECK(stats.stores == 3);
    }
  }
}

TEST_CASE("every cache store is safe under concurrent use", "[conformance]") {
  for (const auto& name : cache_store_names()) {
    DYNAMIC_SECTION("cache/" << name) {
      auto set = make_store(name);
      plexus::CacheStore& store = *set->cache();
      std::vector<std::thread> threads;
      std::atomic<int> wrong{0};
      for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
          for (int i = 0; i < 200; ++i) {
            std::string image = "k" + std::to_string(i % 20);
            store.store(key(image), bytes(image + " value"));
            auto value = store.load(key(image));
            if (value && *value != bytes(image + " value")) ++wrong;
            if (i % 7 == t) store.erase(key(image));
          }
        });
      }
      for (auto& thread : threads) thread.join();
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("every cache store lists, verifies, prunes and clears its entries", "[conformance]") {
  using namespace std::chrono_literals;
  for (const auto& name : cache_store_names()) {
    DYNAMIC_SECTION("cache/" << name) {
      auto set = make_store(name);
      plexus::CacheStore& store = *set->cache();
      CHECK(store.entries().empty());
      CHECK_FALSE(store.describe().empty());
      const auto before = std::chrono::system_clock::now() - 1s;
      store.store(key("k1"), bytes("one"));
      std::this_thread::sleep_for(20ms);
      store.store(key("k2"), bytes("two two"));
      std::this_thread::sleep_for(20ms);
      store.store({"device B", "k3", "spec=1", "-O0"}, bytes("three"));
      std::this_thread::sleep_for(20ms);
      REQUIRE(store.load(key("k1")));  // k1 is now the most recently used

      auto entries = store.entries();
      REQUIRE(entries.size() == 3);
      std::set<std::string> ids;
      for (const auto& entry : entries) {
        ids.insert(entry.id);
        CHECK_FALSE(entry.read_only);
        CHECK_FALSE(entry.location.empty());
        CHECK(entry.last_use >= before);
        CHECK(entry.stored_bytes >= entry.value_bytes);
        if (entry.key == key("k2")) CHECK(entry.value_bytes == 7);
      }
      CHECK(ids.size() == 3);
      CHECK(std::any_of(entries.begin(), entries.end(), [](const auto& e) {
        return e.key == plexus::CacheKey{"device B", "k3", "spec=1", "-O0"};
      }));

      plexus::CacheVerifyReport report = store.verify();
      CHECK(report.checked == 3);
      CHECK(report.good == 3);
      CHECK(report.problems.empty());

      plexus::CachePruneReport nothing = store.prune({std::nullopt, std::chrono::seconds(3600)});
      CHECK(nothing.removed_entries == 0);
      CHECK(nothing.remaining_entries == 3);

      // Keep only as many bytes as the most recently used entry (k1) occupies.
      std::uint64_t k1_bytes = 0;
      for (const auto& entry : entries) if (entry.key == key("k1")) k1_bytes = entry.stored_bytes;
      plexus::CachePruneReport pruned = store.prune({k1_bytes, std::nullopt});
      CHECK(pruned.removed_entries == 2);
      CHECK(pruned.remaining_entries == 1);
      CHECK(pruned.remaining_bytes <= k1_bytes);
      CHECK(store.load(key("k1")) == bytes("one"));
      CHECK_FALSE(store.load(key("k2")));

      store.store(key("k4"), bytes("four"));
      CHECK(store.clear() == 2);
      CHECK(store.entries().empty());
      CHECK_FALSE(store.load(key("k1")));
      CHECK(store.stats().entries == 0);
      CHECK(store.stats().bytes == 0);
      store.store(key("k5"), bytes("five"));  // usable after clear
      CHECK(store.load(key("k5")) == bytes("five"));
    }
  }
}

TEST_CASE("cache/memory evicts the least recently used entries past max_bytes") {
  // Each entry: 8 value bytes + key material ("device A" 8 + "kN" 2 + "-O2" 3) = 21 bytes.
  auto set = make_store("memory", "max_bytes = 50\n");
  plexus::CacheStore& store = *set->cache();
  store.store(key("k1"), bytes("12345678"));
  store.store(key("k2"), bytes("12345678"));
  CHECK(store.load(key("k1")).has_value());  // k1 is now more recent than k2
  store.store(key("k3"), bytes("12345678"));  // 63 > 50: evict the oldest, k2
  CHECK_FALSE(store.load(key("k2")).has_value());
  CHECK(store.load(key("k1")).has_value());
  CHECK(store.load(key("k3")).has_value());
  CHECK(store.stats().evictions == 1);
  CHECK(store.stats().bytes == 42);
}

TEST_CASE("cache/memory refuses a negative size limit") {
  CHECK_THROWS_WITH(make_store("memory", "max_bytes = -1\n"),
                    Contains("cache.memory.max_bytes") && Contains("-1"));
}
