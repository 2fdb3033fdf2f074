// MemoryCacheStore: the `cache/memory` component. A bounded, process-local store of build
// results, evicting the least recently used entries once the total size passes max_bytes.
// For tests and for users who want no disk; nothing survives the process.
//
// Options ([cache.memory]): max_bytes (integer, 0 or more, default 268435456; 0 = unbounded).
// Thread-safety: every member is safe from any thread (see cache_lru::MemoryEntries).
#pragma once

#include "memory_entries.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::memory_cache {

class MemoryCacheStore final : public CacheStore {
 public:
  explicit MemoryCacheStore(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);

  std::optional<std::vector<std::byte>> load(const CacheKey& key) override { return entries_.load(key); }
  void store(const CacheKey& key, std::span<const std::byte> value) override { entries_.store(key, value); }
  bool erase(const CacheKey& key) override { return entries_.erase(key); }
  CacheStats stats() const override { return entries_.stats(); }

  std::vector<CacheEntryInfo> entries() const override { return entries_.entries(); }
  CacheVerifyReport verify() override;  // values live in this process: nothing can rot
  std::uint64_t clear() override { return entries_.clear(); }
  std::vector<std::pair<std::string, std::string>> describe() const override;

 private:
  cache_lru::MemoryEntries entries_;
};

}  // namespace plexus::memory_cache
