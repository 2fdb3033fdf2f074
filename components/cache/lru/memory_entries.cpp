#include "memory_entries.hpp"

#include <cstdio>
#include <functional>

namespace plexus::cache_lru {

MemoryEntries::Key MemoryEntries::key_of(const CacheKey& key) {
  return {key.device, key.image, key.spec_constants, key.build_options};
}

std::uint64_t MemoryEntries::size_of(const Entry& entry) {
  const auto& [device, image, spec, options] = entry.key;
  return entry.value.size() + device.size() + image.size() + spec.size() + options.size();
}

std::optional<std::vector<std::byte>> MemoryEntries::load(const CacheKey& key) {
  std::lock_guard lock(mutex_);
  auto found = index_.find(key_of(key));
  if (found == index_.end()) {
    ++stats_.misses;
    return std::nullopt;
  }
  lru_.splice(lru_.begin(), lru_, found->second);  // now the most recently used
  found->second->last_use = std::chrono::system_clock::now();
  ++stats_.hits;
  return found->second->value;
}

void MemoryEntries::store(const CacheKey& key, std::span<const std::byte> value) {
  std::lock_guard lock(mutex_);
  Key full_key = key_of(key);
  if (auto found = index_.find(full_key); found != index_.end()) erase_locked(found->second);
  lru_.push_front(Entry{full_key, std::vector<std::byte>(value.begin(), value.end()),
                        std::chrono::system_clock::now()});
  index_.emplace(std::move(full_key), lru_.begin());
  ++stats_.entries;
  stats_.bytes += size_of(lru_.front());
  ++stats_.stores;
  evict_locked();
}

bool MemoryEntries::erase(const CacheKey& key) {
  std::lock_guard lock(mutex_);
  auto found = index_.find(key_of(key));
  if (found == index_.end()) return false;
  erase_locked(found->second);
  return true;
}

CacheStats MemoryEntries::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::vector<CacheEntryInfo> MemoryEntries::entries() const {
  std::lock_guard lock(mutex_);
  std::vector<CacheEntryInfo> out;
  for (const Entry& entry : lru_) {
    CacheEntryInfo info;
    const auto& [device, image, spec, options] = entry.key;
    info.key = {device, image, spec, options};
    // Not a cryptographic digest: entries never leave this process.
    std::size_t hash = 0;
    for (const std::string* field : {&device, &image, &spec, &options})
      hash = hash * 1000003u ^ std::hash<std::string>{}(*field);
    char id[17];
    std::snprintf(id, sizeof id, "%016zx", hash);
    info.id = id;
    info.value_bytes = entry.value.size();
    info.stored_bytes = size_of(entry);
    info.last_use = entry.last_use;
    info.location = "memory";
    out.push_back(std::move(info));
  }
  return out;
}

std::uint64_t MemoryEntries::clear() {
  std::lock_guard lock(mutex_);
  const std::uint64_t removed = lru_.size();
  lru_.clear();
  index_.clear();
  stats_.entries = 0;
  stats_.bytes = 0;
  return removed;
}

void MemoryEntries::erase_locked(Lru::iterator entry) {
  stats_.bytes -= size_of(*entry);
  --stats_.entries;
  index_.erase(entry->key);
  lru_.erase(entry);
}

void MemoryEntries::evict_locked() {
  // An entry larger than the whole budget is not kept either.
  while (max_bytes_ != 0 && stats_.bytes > max_bytes_ && !lru_.empty()) {
    erase_locked(std::prev(lru_.end()));
    ++stats_.evictions;
  }
}

}  // namespace plexus::cache_lru
