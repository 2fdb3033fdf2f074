// DiskCacheStore: the `cache/disk` component, a persistent store of build results in a
// directory tree shared by every process of the user.
//
// Layout (the DPC++ persistent-cache layout, with stable keys; layout version 2):
//   <root>/CACHEDIR.TAG and <root>/.plexus-cache   the root's marks (root_marker.hpp)
//   <root>/<device>/<image>/<spec constants>/<build options>/<n>.src and <n>.bin
// where each level is 32 hex digits of BLAKE3 of that key field, <n>.src the self-checking
// full key (compared on lookup; collisions get n = 0, 1, 2, ...) and <n>.bin the entry
// record (magic, format version, sizes, key digest, BLAKE3 checksum, optional zstd; see
// cache_codec.hpp), verified before anything is returned. A bad entry is removed and is a
// miss. Files are published atomically (temporary files in the leaf directory, fdatasync,
// rename, fsync of the directory; .bin before .src, so a visible .src has its .bin).
// Entry files are opened without following symbolic links and without blocking, and only
// regular files are read: a directory, FIFO or link in an entry's place is a damaged entry.
//
// What it writes and removes: only in a root it created or adopted (marked), and there only
// files it recognises by their content (an entry's header, a key record's checksum, an
// unfinished write's magic) and empty directories of the layout. A root that it did not
// create and that holds other files (e.g. PLEXUS_CACHE_DIR=$HOME) is never written, evicted
// or cleared: the store says so once and reads it as a read-only layer.
//
// When the root cannot be used (persistent_fallback.hpp): it cannot be created or is not
// Plexus's: in-memory cache; it (or a directory above it) may be written by others:
// in-memory cache (refused, since anyone could plant entries); it can be read but not
// written or locked: read-only, new entries in memory. A write or lock that fails later
// (disk full, permissions changed) does the same. One warning per problem, never an error.
//
// Locks (flock(2): released by the kernel when the holder dies):
// - <root>/.lock: writers hold it shared for one store or erase; eviction, prune, verify
//   and clear hold it exclusive (they alone remove directories and half-published entries).
// - <leaf>/.lock: exclusive while a writer picks <n> and publishes into that directory; so
//   the writer holding it knows every temporary file there belongs to a dead writer, and
//   removes it (a killed writer's leftovers go with the next store into that directory).
// Readers take no lock; the last use of an entry is its .bin's mtime, set on every hit
// (atime is never used, so noatime mounts are fine). <root>/.stats keeps lifetime counters,
// an approximate byte total (exact after every eviction) and the last cleanup time.
//
// Eviction: when a store takes the total past max_bytes (down to 90% of it), and at
// shutdown (past max_bytes, or every cleanup_interval_minutes when max_age_days is set; the
// walk costs a stat per file, so not at every exit): entries unused for
// max_age_days go first, then the least recently used; unfinished writes of dead
// processes, half-published entries and empty directories are removed on the way.
//
// Options ([cache.disk]; integers are range-checked, errors name file:line:col):
//   root             directory (default: PLEXUS_CACHE_DIR, else $XDG_CACHE_HOME/plexus,
//                    else ~/.cache/plexus); created 0700; not used (a warning) if another
//                    user owns it, group/others may write it or a directory above it that
//                    others may write lacks the sticky bit
//   max_bytes        0 or more, default 1073741824 (1 GiB); 0 = unbounded
//   max_age_days     0..36500, default 30; 0 = no age limit
//   compression      "none" (default) or "zstd"; compression_level 1..22 (default 3)
//   sync             default true; false skips fdatasync/fsync (much faster stores on slow
//                    disks; after a power failure an entry may be lost, never returned
//                    damaged: the checksum catches it)
//   cleanup_interval_minutes  0..525600 (a year), default 60; 0 = the age limit is
//                    applied at every shutdown
//   read_only_layers directories with the same layout consulted on a miss, never written
//                    (e.g. a system-wide cache); refused if group/others may write them
//   test_fixed_hash  TEST ONLY: every key field hashes to 0...0 (forces collisions)
//   test_pause_before_publish_ms  TEST ONLY (0..60000): sleep between writing a .bin's
//                    temporary file and renaming it into place
// Thread-safety: every member is safe from any thread and any number of processes.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cache_codec.hpp"
#include "store_options.hpp"
#include "file_util.hpp"
#include "persistent_fallback.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::disk_cache {

class DiskCacheStore final : public CacheStore {
 public:
  explicit DiskCacheStore(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~DiskCacheStore() override;

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
  struct Settings;  // the [cache.disk] options, read once (read_settings)
  static Settings read_settings(const ComponentOptions& options);
  explicit DiskCacheStore(const Settings& settings);
  struct Counters {
    std::int64_t bytes = 0;
    std::uint64_t hits = 0, misses = 0, stores = 0, evictions = 0;
    std::int64_t last_cleanup = 0;  // seconds since the epoch
  };
  struct ScannedEntry {
    fs::path leaf;
    unsigned n = 0;
    std::uint64_t bytes = 0;
    std::chrono::system_clock::time_point last_use;
  };
  struct Scan {
    std::vector<ScannedEntry> entries;
    std::vector<std::pair<fs::path, std::string>> garbage;  // path, why
  };

  void open_root();
  fs::path leaf_of(const fs::path& base, const CacheKey& key) const;
  std::optional<std::vector<std::byte>> load_from(const fs::path& base, const CacheKey& key,
                                                  const cache_codec::Digest& digest, bool writable);
  void store_on_disk(const CacheKey& key, std::span<const std::byte> value);
  bool erase_on_disk(const CacheKey& key);
  void remove_damaged(const fs::path& leaf, unsigned n, const fs::path& checked,
                      const std::optional<FileContent>& content, const std::string& reason);
  Scan scan(const fs::path& base) const;
  void check_entries(const fs::path& base, bool writable, CacheVerifyReport& report);
  CachePruneReport evict_locked(std::optional<std::uint64_t> max_bytes,
                                std::optional<std::chrono::seconds> max_age);
  CachePruneReport evict(std::optional<std::uint64_t> max_bytes, std::optional<std::chrono::seconds> max_age);
  Counters update_counters(const Counters& delta, std::optional<std::int64_t> set_bytes = {},
                           bool set_cleanup = false) const;
  Counters read_counters() const;
  void remove_empty_dirs() const;

  cache_codec::StoreOptions options_;
  bool sync_;
  std::chrono::minutes cleanup_interval_;
  fs::path root_;
  std::vector<fs::path> layers_;
  cache_codec::PersistentFallback fallback_;

  mutable std::mutex mutex_;
  CacheStats stats_;           // this object's counters (entries/bytes filled by stats())
  Counters unflushed_;         // hits and misses not yet added to <root>/.stats
};

}  // namespace plexus::disk_cache
