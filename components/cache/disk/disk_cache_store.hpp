// DiskCacheStore: the `cache/disk` component, a persistent store of build results in a
// directory tree shared by every process of the user.
//
// Layout (the DPC++ persistent-cache layout, with stable keys):
//   <root>/<device>/<image>/<spec constants>/<build options>/<n>.src and <n>.bin
// where each level is 32 hex digits of BLAKE3 of that key field, <n>.src the self-checking
// full key (compared on lookup; collisions get n = 0, 1, 2, ...) and <n>.bin the entry
// record (magic, format version, sizes, key digest, BLAKE3 checksum, optional zstd; see
// cache_codec.hpp), verified before anything is returned. A bad entry is removed and is a
// miss. Files are published atomically (temporary files in the leaf directory, fdatasync,
// rename, fsync of the directory; .bin before .src, so a visible .src has its .bin).
//
// Locks (flock(2): released by the kernel when the holder dies):
// - <root>/.lock: writers hold it shared for one store or erase; eviction, prune, verify
//   and clear hold it exclusive (they alone remove directories and unfinished files).
// - <leaf>/.lock: exclusive while a writer picks <n> and publishes into that directory.
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
// Options ([cache.disk]):
//   root             directory (default: PLEXUS_CACHE_DIR, else $XDG_CACHE_HOME/plexus,
//                    else ~/.cache/plexus); created 0700; refused if another user owns it
//                    or group/others may write it
//   max_bytes        integer, default 1073741824 (1 GiB); 0 = unbounded
//   max_age_days     number, default 30; 0 = no age limit
//   compression      "none" (default) or "zstd"; compression_level (default 3)
//   sync             default true; false skips fdatasync/fsync (much faster stores on slow
//                    disks; after a power failure an entry may be lost, never returned
//                    damaged: the checksum catches it)
//   cleanup_interval_minutes  default 60; 0 = the age limit is applied at every shutdown
//   read_only_layers directories with the same layout consulted on a miss, never written
//                    (e.g. a system-wide cache); refused if group/others may write them
//   test_fixed_hash  TEST ONLY: every key field hashes to 0...0 (forces collisions)
//   test_pause_before_publish_ms  TEST ONLY: sleep between writing a .bin's temporary
//                    file and renaming it into place
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
#include "file_util.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/plugin_context.hpp"

namespace plexus::disk_cache {

class DiskCacheStore final : public CacheStore {
 public:
  explicit DiskCacheStore(PluginContext& context);
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

  fs::path leaf_of(const fs::path& base, const CacheKey& key) const;
  std::optional<std::vector<std::byte>> load_from(const fs::path& base, const CacheKey& key,
                                                  const cache_codec::Digest& digest, bool writable);
  void remove_damaged(const fs::path& leaf, unsigned n, const fs::path& checked,
                      const FileContent& content, const std::string& reason);
  Scan scan(const fs::path& base) const;
  CachePruneReport evict_locked(std::optional<std::uint64_t> max_bytes,
                                std::optional<std::chrono::seconds> max_age);
  CachePruneReport evict(std::optional<std::uint64_t> max_bytes, std::optional<std::chrono::seconds> max_age);
  Counters update_counters(const Counters& delta, std::optional<std::int64_t> set_bytes = {},
                           bool set_cleanup = false) const;
  void remove_empty_dirs() const;

  fs::path root_;
  std::vector<fs::path> layers_;
  std::uint64_t max_bytes_;
  std::optional<std::chrono::seconds> max_age_;
  cache_codec::Compression compression_;
  int compression_level_;
  bool sync_;
  bool fixed_hash_;
  std::chrono::minutes cleanup_interval_;
  std::chrono::milliseconds pause_before_publish_;

  mutable std::mutex mutex_;
  CacheStats stats_;           // this object's counters (entries/bytes filled by stats())
  Counters unflushed_;         // hits and misses not yet added to <root>/.stats
};

}  // namespace plexus::disk_cache
