// CacheStore: a persistent store of build results (device binaries, frontend bitcode).
//
// Keys are the full key material; a store hashes them for addressing and compares the
// full key on lookup (no silent collisions). load() returns only data whose integrity the
// store has verified; a damaged entry is removed (where the store may write) and is a miss.
//
// Maintenance (what `plexus cache` uses, on any store):
// - entries(): every entry with its key, sizes and last use. Entries of read-only layers
//   are listed with read_only set.
// - verify(): checks every entry's checksum and key; removes each bad one (never in a
//   read-only layer) and reports it.
// - prune(limits): removes entries older than max_age and then least recently used ones
//   until the store holds at most max_bytes. Limits left unset use nothing.
// - clear(): removes every entry the store may write.
// - describe(): store-specific facts (location, limits, lifetime counters) as name/value.
// The defaults of verify/prune/clear are built from entries(), load() and erase(); a store
// that does not override entries() throws error(unsupported) from it (and so from them).
//
// Thread-safety: all members are safe from any thread, and stores that persist must be
// safe with many processes using the same location at once (including one killed at any
// instruction). Ownership: values are copied in and out; no reference into the store escapes.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"

namespace plexus {

struct CacheKey {
  std::string device;          // identity of the target device and its driver
  std::string image;           // identity of the input (source, IR, SYCLBIN image)
  std::string spec_constants;  // specialization-constant values
  std::string build_options;   // rendered build options

  friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

// Counters of this store object (entries and bytes: what the store holds now).
struct CacheStats {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t stores = 0;
  std::uint64_t evictions = 0;
};

struct CacheEntryInfo {
  CacheKey key;
  std::string id;                   // hex digest naming the entry (what `show` matches)
  std::uint64_t value_bytes = 0;    // the value as load() returns it
  std::uint64_t stored_bytes = 0;   // what the entry occupies (header, key, compression)
  std::chrono::system_clock::time_point last_use;
  std::string location;             // file, database row, "memory"
  bool read_only = false;           // in a read-only layer: never written or removed
};

struct CacheProblem {
  std::string location;
  std::string reason;
  bool removed = false;
};

struct CacheVerifyReport {
  std::uint64_t checked = 0;
  std::uint64_t good = 0;
  std::vector<CacheProblem> problems;
};

struct CachePruneLimits {
  std::optional<std::uint64_t> max_bytes;
  std::optional<std::chrono::seconds> max_age;
};

struct CachePruneReport {
  std::uint64_t removed_entries = 0;
  std::uint64_t removed_bytes = 0;
  std::uint64_t remaining_entries = 0;
  std::uint64_t remaining_bytes = 0;
};

class PLEXUS_API CacheStore : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::cache;
  ~CacheStore() override;

  virtual std::optional<std::vector<std::byte>> load(const CacheKey& key) = 0;
  virtual void store(const CacheKey& key, std::span<const std::byte> value) = 0;
  virtual bool erase(const CacheKey& key) = 0;
  virtual CacheStats stats() const = 0;

  virtual std::vector<CacheEntryInfo> entries() const;
  virtual CacheVerifyReport verify();
  virtual CachePruneReport prune(const CachePruneLimits& limits);
  // Returns the number of entries removed.
  virtual std::uint64_t clear();
  virtual std::vector<std::pair<std::string, std::string>> describe() const;
};

}  // namespace plexus
