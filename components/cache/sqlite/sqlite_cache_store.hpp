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
// A file that is not a database, or a database found corrupt at any time ("database disk
// image is malformed", on opening or in any later statement), is moved aside
// (<path>.corrupt-<time>) with a warning, and a new database is created; the operation
// runs once more on it. A writer killed inside its transaction leaves nothing: SQLite
// rolls it back, and its locks die with it.
//
// When the database cannot be used (persistent_fallback.hpp): its directory cannot be
// created, or group/others (or a directory above without the sticky bit) may write it:
// in-memory cache; it can be read but not written: read-only, new entries in memory; a
// later failure to write (disk full, read-only file) does the same. One warning, never an
// error; `plexus cache prune/clear` say why they cannot run.
//
// Options ([cache.sqlite]; integers are range-checked, errors name file:line:col):
//   path          the database (default: <cache root>/plexus-cache.sqlite, the cache root
//                 as for cache/disk); its directory is created 0700 and not used (a
//                 warning) if another user owns it or group/others may write it; the file
//                 is created 0600
//   max_bytes     0 or more, default 1073741824 (1 GiB); 0 = unbounded
//   max_age_days  0..36500, default 30; 0 = no age limit
//   compression   "none" (default) or "zstd"; compression_level 1..22 (default 3)
//   busy_timeout_ms  0..3600000, default 30000
//   test_fixed_hash  TEST ONLY: every key gets the same digest (forces collisions)
//   test_pause_before_publish_ms  TEST ONLY (0..60000): sleep inside a store's transaction
// Eviction runs when a store takes the total past max_bytes (down to 90%) and at shutdown.
// Thread-safety: every member is safe from any thread (one connection behind a mutex).
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "cache_codec.hpp"
#include "persistent_fallback.hpp"
#include "store_options.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

struct sqlite3;

namespace plexus::sqlite_cache {

class SqliteCacheStore final : public CacheStore {
 public:
  explicit SqliteCacheStore(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
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
  struct Settings;  // the [cache.sqlite] options, read once (read_settings)
  static Settings read_settings(const ComponentOptions& options);
  explicit SqliteCacheStore(const Settings& settings);
  using StoreMode = cache_codec::StoreMode;
  void open_locked();
  bool open_read_only_locked();
  void close_locked() const;
  // Moves a corrupt database aside and opens a new one (lowering the mode when that fails).
  void set_aside_locked(const std::string& why) const;
  // Runs `op` on the database (mutex_ held). A corrupt database is set aside and `op` runs
  // once more; any other failure lowers the mode to `on_failure` (one warning) and returns
  // false, or rethrows when `rethrow` (maintenance the user asked for).
  bool attempt_locked(const std::string& action, StoreMode on_failure, const std::function<void()>& op,
                      bool rethrow = false) const;
  cache_codec::Digest address(const CacheKey& key) const;
  struct Row {
    std::int64_t id = 0;
    std::int64_t stored_bytes = 0;
  };
  // The row of `key` (compared in full) among those at `addr`.
  std::optional<Row> row_of_locked(const cache_codec::Digest& addr, const CacheKey& key) const;
  CachePruneReport evict_locked(std::optional<std::uint64_t> max_bytes,
                                std::optional<std::chrono::seconds> max_age);
  void add_counter_locked(const char* name, std::int64_t delta);
  std::int64_t counter_locked(const char* name) const;

  std::filesystem::path path_;
  cache_codec::StoreOptions options_;
  int busy_timeout_ms_;

  mutable std::mutex mutex_;
  mutable sqlite3* db_ = nullptr;
  mutable cache_codec::PersistentFallback fallback_;
  mutable std::string set_aside_to_;  // where the last corrupt database went (for verify)
  CacheStats stats_;
  std::uint64_t unflushed_hits_ = 0, unflushed_misses_ = 0;
};

}  // namespace plexus::sqlite_cache
