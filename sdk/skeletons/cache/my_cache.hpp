// MyCacheStore: skeleton of a Plexus cache store (a persistent store of build results).
// Interface: plexus/cache_store.hpp.
//
// As shipped it works, but keeps the entries in memory only (a map from the full key to the
// value, gone when the process ends). Make it persist in load(), store() and erase(): address entries by a hash of the whole CacheKey,
// keep the full key with the value and compare it on load (no silent collisions), and
// return from load() only data whose integrity you verified (a checksum); a damaged or
// missing entry is a miss (std::nullopt), not an error.
//
// For `plexus cache` (ls, show, verify, prune, clear), entries() lists every entry with its
// key, sizes and last use; verify(), prune() and clear() then work through load() and
// erase(): override them where the store can do better. describe() shows the store's
// settings in `plexus cache stats`.
//
// Thread-safety (the contract): every member is called from any thread; a store that
// persists must also be safe with several processes using the same location (write to a
// temporary file and rename, or use file locks). Here one mutex guards the statistics.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

namespace my_cache {

class MyCacheStore final : public plexus::CacheStore {
 public:
  explicit MyCacheStore(plexus::PluginContext& context);

  std::optional<std::vector<std::byte>> load(const plexus::CacheKey& key) override;
  void store(const plexus::CacheKey& key, std::span<const std::byte> value) override;
  bool erase(const plexus::CacheKey& key) override;
  plexus::CacheStats stats() const override;
  // For `plexus cache` (ls, verify, prune, clear work through these, load() and erase()).
  std::vector<plexus::CacheEntryInfo> entries() const override;
  // CacheStore's default verify() loads every entry, which would count as a use and upset
  // the least-recently-used order that prune() follows: check entries without touching them.
  plexus::CacheVerifyReport verify() override;
  std::vector<std::pair<std::string, std::string>> describe() const override;

 private:
  // The full key as one ordered tuple (CacheKey has no hash or order of its own).
  using KeyTuple = std::tuple<std::string, std::string, std::string, std::string>;
  static KeyTuple tuple_of(const plexus::CacheKey& key);

  std::string directory_;
  mutable std::mutex mutex_;  // guards entries_ and stats_
  struct Entry {
    std::vector<std::byte> value;
    std::chrono::system_clock::time_point last_use;
  };
  std::map<KeyTuple, Entry> entries_;  // TODO: your persistent store
  plexus::CacheStats stats_;
};

}  // namespace my_cache
