// Default maintenance members of CacheStore, built from entries(), load() and erase().
#include <algorithm>

#include "plexus/cache_store.hpp"
#include "plexus/error.hpp"

namespace plexus {

std::vector<CacheEntryInfo> CacheStore::entries() const {
  throw error(error_category::unsupported,
              "this cache store does not list its entries (CacheStore::entries is not "
              "implemented); inspect it with its own tools");
}

CacheVerifyReport CacheStore::verify() {
  CacheVerifyReport report;
  for (const CacheEntryInfo& entry : entries()) {
    if (entry.read_only) continue;
    ++report.checked;
    // load() verifies the entry and removes it when it is damaged.
    if (load(entry.key)) {
      ++report.good;
    } else {
      report.problems.push_back({entry.location, "failed verification on load", true});
    }
  }
  return report;
}

CachePruneReport CacheStore::prune(const CachePruneLimits& limits) {
  std::vector<CacheEntryInfo> all = entries();
  std::erase_if(all, [](const CacheEntryInfo& entry) { return entry.read_only; });
  std::sort(all.begin(), all.end(), [](const CacheEntryInfo& a, const CacheEntryInfo& b) {
    return a.last_use < b.last_use;  // least recently used first
  });
  CachePruneReport report;
  std::uint64_t total = 0;
  for (const auto& entry : all) total += entry.stored_bytes;
  const auto now = std::chrono::system_clock::now();
  for (const auto& entry : all) {
    const bool too_old = limits.max_age && now - entry.last_use > *limits.max_age;
    const bool too_big = limits.max_bytes && total > *limits.max_bytes;
    if ((too_old || too_big) && erase(entry.key)) {
      ++report.removed_entries;
      report.removed_bytes += entry.stored_bytes;
      total -= entry.stored_bytes;
    } else {
      ++report.remaining_entries;
    }
  }
  report.remaining_bytes = total;
  return report;
}

std::uint64_t CacheStore::clear() {
  std::uint64_t removed = 0;
  for (const auto& entry : entries()) {
    if (!entry.read_only && erase(entry.key)) ++removed;
  }
  return removed;
}

std::vector<std::pair<std::string, std::string>> CacheStore::describe() const { return {}; }

}  // namespace plexus
