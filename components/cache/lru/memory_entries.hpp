// MemoryEntries: a bounded, process-local map of cache entries, evicting the least recently
// used ones once the total size (values and keys) passes max_bytes (0: unbounded). The
// whole of cache/memory, and where cache/disk and cache/sqlite keep what they cannot write
// to their location (see persistent_fallback.hpp).
// Thread-safety: every member is safe from any thread (one mutex; values are copied in and
// out, so no caller ever holds a reference into the map).
#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "plexus/cache_store.hpp"

namespace plexus::cache_lru {

class MemoryEntries {
 public:
  explicit MemoryEntries(std::uint64_t max_bytes) : max_bytes_(max_bytes) {}

  std::optional<std::vector<std::byte>> load(const CacheKey& key);
  void store(const CacheKey& key, std::span<const std::byte> value);
  bool erase(const CacheKey& key);
  // entries, bytes, hits, misses, stores and evictions of this map.
  CacheStats stats() const;
  // Most recently used first; location "memory".
  std::vector<CacheEntryInfo> entries() const;
  std::uint64_t clear();
  std::uint64_t max_bytes() const { return max_bytes_; }

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

}  // namespace plexus::cache_lru
