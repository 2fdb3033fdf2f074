// PersistentFallback: how cache/disk and cache/sqlite go on when their location fails them.
// The persistent cache is an optimisation: a store that cannot create, lock, read or write
// its location never stops the program. It warns once (per location and mode, per process)
// (plexus::warn_once) with the reason and how to fix it, and goes on:
//   read_write  the normal mode;
//   read_only   the location is still read (a hit is verified as always) but nothing is
//               written or removed there; stores go to an in-process map (MemoryEntries);
//   memory      the location is not used at all (it cannot be read, or reading it would
//               be unsafe: others may write it); only the in-process map.
// A mode only ever goes down (read_write -> read_only -> memory), never back up.
// Thread-safety: every member is safe from any thread.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "memory_entries.hpp"

namespace plexus::cache_codec {

enum class StoreMode { read_write, read_only, memory };

class PersistentFallback {
 public:
  // `store`: "cache/disk"; `fix`: what the user can do, e.g. "set [cache.disk] root or
  // PLEXUS_CACHE_DIR to a directory of your own".
  PersistentFallback(std::string store, std::string fix, std::uint64_t memory_max_bytes)
      : store_(std::move(store)), fix_(std::move(fix)), memory_(memory_max_bytes) {}

  StoreMode mode() const { return mode_.load(std::memory_order_acquire); }
  bool writable() const { return mode() == StoreMode::read_write; }
  // Lowers the mode to `to` (no-op when it is already that low) and warns once:
  // "<store>: <why>; <fix>; continuing with <what the mode means> for this process".
  void degrade(StoreMode to, const std::string& location, const std::string& why);
  // A problem that does not change the mode (an unreadable entry): warned once.
  void warn_once(const std::string& message) const;
  // Why the store is not read_write ("" when it is).
  std::string reason() const;
  // describe() lines: the mode and why.
  std::vector<std::pair<std::string, std::string>> describe() const;
  // The error for maintenance that needs to write (prune, clear) when not read_write.
  [[noreturn]] void refuse(const std::string& action, const std::string& location) const;

  cache_lru::MemoryEntries& memory() { return memory_; }
  const cache_lru::MemoryEntries& memory() const { return memory_; }

 private:
  const std::string store_;
  const std::string fix_;
  std::atomic<StoreMode> mode_{StoreMode::read_write};
  mutable std::mutex mutex_;
  std::string reason_;
  cache_lru::MemoryEntries memory_;
};

const char* to_string(StoreMode mode);

}  // namespace plexus::cache_codec
