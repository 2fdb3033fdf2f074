// MyCacheStore: skeleton of a Plexus cache store (a persistent store of build results).
// Interface: plexus/cache_store.hpp.
//
// Fill in load(), store() and erase(): address entries by a hash of the whole CacheKey,
// keep the full key with the value and compare it on load (no silent collisions), and
// return from load() only data whose integrity you verified (a checksum); a damaged or
// missing entry is a miss (std::nullopt), not an error.
//
// For `plexus cache` (ls, show, verify, prune, clear), also override entries(): list every
// entry with its key, sizes and last use. verify(), prune() and clear() then work through
// load() and erase(); override them where the store can do better, and describe() to show
// the store's settings in `plexus cache stats`. Without entries() they report "unsupported".
//
// Thread-safety (the contract): every member is called from any thread; a store that
// persists must also be safe with several processes using the same location (write to a
// temporary file and rename, or use file locks). Here one mutex guards the statistics.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <span>
#include <string>
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

 private:
  std::string directory_;
  mutable std::mutex mutex_;  // guards stats_
  plexus::CacheStats stats_;
};

}  // namespace my_cache
