// The default maintenance members of CacheStore (verify, prune, clear from entries(),
// load() and erase()), as a third-party store that overrides only entries() gets them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>

#include "plexus/cache_store.hpp"
#include "plexus/error.hpp"

using Catch::Matchers::Contains;
using namespace std::chrono_literals;

namespace {

std::vector<std::byte> bytes(const std::string& text) {
  std::vector<std::byte> out;
  for (char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

// A store of the minimum: one map, "damaged" values fail on load (and are then erased).
class MinimalStore : public plexus::CacheStore {
 public:
  std::optional<std::vector<std::byte>> load(const plexus::CacheKey& key) override {
    auto found = find(key);
    if (found == values_.end()) return std::nullopt;
    if (found->damaged) {
      values_.erase(found);
      return std::nullopt;
    }
    found->last_use = std::chrono::system_clock::now();
    return found->value;
  }
  void store(const plexus::CacheKey& key, std::span<const std::byte> value) override {
    erase(key);
    values_.push_back({key, {value.begin(), value.end()}, std::chrono::system_clock::now(), false});
  }
  bool erase(const plexus::CacheKey& key) override {
    auto found = find(key);
    if (found == values_.end()) return false;
    values_.erase(found);
    return true;
  }
  plexus::CacheStats stats() const override { return {values_.size(), 0, 0, 0, 0, 0}; }
  void damage(const plexus::CacheKey& key) { find(key)->damaged = true; }

 protected:
  struct Value {
    plexus::CacheKey key;
    std::vector<std::byte> value;
    std::chrono::system_clock::time_point last_use;
    bool damaged;
  };
  std::vector<Value>::iterator find(const plexus::CacheKey& key) {
    return std::find_if(values_.begin(), values_.end(), [&](const Value& v) { return v.key == key; });
  }
  std::vector<Value> values_;
};

class ListingStore final : public MinimalStore {
 public:
  std::vector<plexus::CacheEntryInfo> entries() const override {
    std::vector<plexus::CacheEntryInfo> out;
    for (const auto& v : values_) {
      plexus::CacheEntryInfo info;
      info.key = v.key;
      info.id = v.key.image;
      info.value_bytes = info.stored_bytes = v.value.size();
      info.last_use = v.last_use;
      info.location = "vector";
      out.push_back(info);
    }
    return out;
  }
};

plexus::CacheKey key(const std::string& image) { return {"d", image, "", ""}; }

}  // namespace

TEST_CASE("CacheStore defaults: verify, prune and clear through entries, load and erase") {
  ListingStore store;
  store.store(key("a"), bytes("aaaa"));
  std::this_thread::sleep_for(5ms);
  store.store(key("b"), bytes("bbbb"));
  std::this_thread::sleep_for(5ms);
  store.store(key("c"), bytes("cccc"));
  store.damage(key("b"));
  plexus::CacheVerifyReport report = store.verify();
  CHECK(report.checked == 3);
  CHECK(report.good == 2);
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems[0].removed);
  std::this_thread::sleep_for(5ms);
  store.store(key("d"), bytes("dddd"));
  plexus::CachePruneReport pruned = store.prune({8, std::nullopt});  // keeps the two most recent
  CHECK(pruned.removed_entries == 1);
  CHECK(pruned.remaining_entries == 2);
  CHECK(pruned.remaining_bytes == 8);
  CHECK(store.clear() == 2);
  CHECK(store.entries().empty());
  CHECK(store.describe().empty());
}

TEST_CASE("CacheStore defaults: a store without entries() says maintenance is unsupported") {
  MinimalStore store;
  store.store(key("a"), bytes("a"));
  CHECK_THROWS_WITH(store.entries(), Contains("does not list its entries"));
  CHECK_THROWS_AS(store.verify(), plexus::error);
  CHECK_THROWS_AS(store.prune({0, std::nullopt}), plexus::error);
  CHECK_THROWS_AS(store.clear(), plexus::error);
  CHECK(store.load(key("a")) == bytes("a"));
}
