// MemoryCacheStore: the `cache/memory` component. A bounded, process-local store of build
// results, evicting the least recently used entries once the total size passes max_bytes.
// For tests and for users who want no disk; nothing survives the process.
//
// Options ([cache.memory]): max_bytes (integer, default 268435456; 0 = unbounded).
// Thread-safety: every member is safe from any thread (one mutex; values are copied in and
// out, so no caller ever holds a reference into the store).
#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <tuple>

#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::memory_cache {

class MemoryCacheStore final : public CacheStore {
 public:
  explicit MemoryCacheStore(PluginContext& context);

  std::optional<std::vector<std::byte>> load(const CacheKey& key) override;
  void store(const CacheKey& key, std::span<const std::byte> value) override;
  bool erase(const CacheKey& key) override;
  CacheStats stats() const override;

  std::vector<CacheEntryInfo> entries() const override;
  CacheVerifyReport verify() override;  // values live in this process: nothing can rot
  std::uint64_t clear() override;
  std::vector<std::pair<std::string, std::string>> describe() const override;

 private:
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  struct Entry {
    Key key;
    std::vector<std::byte> value;
    std::chrono::system_clock::time_point last_use;
  };
  using Lru = std::list<Entry>;  // most recently used first

  static Key key_of(const CacheKey& key);
  static std::uint64_t size_of(const Entry& entry);
  void erase_locked(Lru::iterator entry);
  void evict_locked();

  const std::uint64_t max_bytes_;
  mutable std::mutex mutex_;
  Lru lru_;
  std::map<Key, Lru::iterator> index_;
  CacheStats stats_;
};

}  // namespace plexus::memory_cache
