// SqliteCacheStore: the `cache/sqlite` component, the persistent store in one SQLite file
// (WAL mode, a busy timeout, every change in one transaction), safe with many processes.
//
// Table entries(id, digest, key, value, stored_bytes, last_use): `digest` is BLAKE3 of the
// full key (the address), `key` the self-checking key record (compared on lookup, so a
// digest collision is another row, never a wrong value) and `value` the checksummed entry
// record of cache_codec.hpp, verified before anything is returned; a bad row is deleted
// and is a miss. `last_use` (milliseconds) is set on every hit: LRU and age eviction need
// no file times. Table counters keeps the byte total and lifetime counters.
//
// A file that is not a database (or is corrupt) is moved aside (<path>.corrupt-<time>) with
// a warning and a new database is created. A writer killed inside its transaction leaves
// nothing: SQLite rolls it back, and its locks die with it.
//
// Options ([cache.sqlite]):
//   path          the database (default: <cache root>/plexus-cache.sqlite, the cache root
//                 as for cache/disk); its directory is created 0700 and refused if another
//                 user owns it or group/others may write it; the file is created 0600
//   max_bytes     integer, default 1073741824 (1 GiB); 0 = unbounded
//   max_age_days  integer, default 30; 0 = no age limit
//   compression   "none" (default) or "zstd"; compression_level (default 3)
//   busy_timeout_ms  integer, default 30000
//   test_fixed_hash  TEST ONLY: every key gets the same digest (forces collisions)
//   test_pause_before_publish_ms  TEST ONLY: sleep inside a store's transaction
// Eviction runs when a store takes the total past max_bytes (down to 90%) and at shutdown.
// Thread-safety: every member is safe from any thread (one connection behind a mutex).
#pragma once

#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "cache_codec.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

struct sqlite3;

namespace plexus::sqlite_cache {

class SqliteCacheStore final : public CacheStore {
 public:
  explicit SqliteCacheStore(PluginContext& context);
  ~SqliteCacheStore() override;

  std::optional<std::vector<std::byte>> load(const CacheKey& key) override;
  void store(const CacheKey& key, std::span<const std::byte> value) override;
  bool erase(const CacheKey& key) override;
  CacheStats stats() const override;

  std::vector<CacheEntryInfo> entries() const override;
  CacheVerifyReport verify() override;
  CachePruneReport prune(const CachePruneLimits& limits) override;
  std::uint64_t clear() override;
  std::vector<std::pair<std::string, std::string>> describe() const override;

 private:
  void open();
  cache_codec::Digest address(const CacheKey& key) const;
  CachePruneReport evict_locked(std::optional<std::uint64_t> max_bytes,
                                std::optional<std::chrono::seconds> max_age);
  void add_counter_locked(const char* name, std::int64_t delta);
  std::int64_t counter_locked(const char* name) const;

  std::filesystem::path path_;
  std::uint64_t max_bytes_;
  std::optional<std::chrono::seconds> max_age_;
  cache_codec::Compression compression_;
  int compression_level_;
  int busy_timeout_ms_;
  bool fixed_hash_;
  std::chrono::milliseconds pause_before_publish_;

  mutable std::mutex mutex_;
  sqlite3* db_ = nullptr;
  CacheStats stats_;
  std::uint64_t unflushed_hits_ = 0, unflushed_misses_ = 0;
};

}  // namespace plexus::sqlite_cache
