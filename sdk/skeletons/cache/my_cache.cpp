#include "my_cache.hpp"

#include <cstdio>
#include <functional>

namespace my_cache {

MyCacheStore::MyCacheStore(plexus::PluginContext& context) {
  // Options come from the config's `[cache.my_cache]` table, e.g.
  //   [cache.my_cache]
  //   directory = "/var/cache/my_cache"
  // Read every option you support (unread keys are reported as probable typos).
  directory_ = context.options.get<std::string>("directory", "");
  // TODO: open or create the store at directory_ (empty: your default location).
}

MyCacheStore::KeyTuple MyCacheStore::tuple_of(const plexus::CacheKey& key) {
  return {key.device, key.image, key.spec_constants, key.build_options};
}

std::optional<std::vector<std::byte>> MyCacheStore::load(const plexus::CacheKey& key) {
  // TODO: look the key up in your store and verify the entry (checksum, full key); a
  // damaged or missing entry is a miss.
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(tuple_of(key));
  if (it == entries_.end()) {
    ++stats_.misses;
    return std::nullopt;
  }
  ++stats_.hits;
  it->second.last_use = std::chrono::system_clock::now();
  return it->second.value;
}

void MyCacheStore::store(const plexus::CacheKey& key, std::span<const std::byte> value) {
  // TODO: write the entry atomically (a temporary file renamed into place, a transaction).
  std::lock_guard lock(mutex_);
  auto [it, added] = entries_.try_emplace(tuple_of(key));
  if (!added) stats_.bytes -= it->second.value.size();
  it->second.value.assign(value.begin(), value.end());
  it->second.last_use = std::chrono::system_clock::now();
  stats_.bytes += value.size();
  stats_.entries = entries_.size();
  ++stats_.stores;
}

bool MyCacheStore::erase(const plexus::CacheKey& key) {
  // TODO: remove the entry from your store; return whether it existed.
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(tuple_of(key));
  if (it == entries_.end()) return false;
  stats_.bytes -= it->second.value.size();
  entries_.erase(it);
  stats_.entries = entries_.size();
  return true;
}

std::vector<plexus::CacheEntryInfo> MyCacheStore::entries() const {
  std::lock_guard lock(mutex_);
  std::vector<plexus::CacheEntryInfo> out;
  for (const auto& [key, entry] : entries_) {
    plexus::CacheEntryInfo info;
    const auto& [device, image, spec_constants, build_options] = key;
    info.key = {device, image, spec_constants, build_options};
    // TODO: your store's digest of the key (what `plexus cache show` matches).
    std::size_t hash = 0;
    for (const std::string* field : {&device, &image, &spec_constants, &build_options})
      hash = hash * 1000003u ^ std::hash<std::string>{}(*field);
    char id[17];
    std::snprintf(id, sizeof id, "%016zx", hash);
    info.id = id;
    info.value_bytes = info.stored_bytes = entry.value.size();
    info.last_use = entry.last_use;
    info.location = "memory";
    out.push_back(std::move(info));
  }
  return out;
}

plexus::CacheVerifyReport MyCacheStore::verify() {
  // TODO: check each stored entry's checksum and full key; remove (and report) damaged ones.
  std::lock_guard lock(mutex_);
  plexus::CacheVerifyReport report;
  report.checked = report.good = entries_.size();
  return report;
}

std::vector<std::pair<std::string, std::string>> MyCacheStore::describe() const {
  return {{"location", directory_.empty() ? "memory (TODO: persist)" : directory_}};
}

plexus::CacheStats MyCacheStore::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace my_cache
