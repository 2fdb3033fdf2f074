#include "memory_cache_store.hpp"

namespace plexus::memory_cache {

MemoryCacheStore::MemoryCacheStore(PluginContext& context)
    : entries_(static_cast<std::uint64_t>(
          context.options.get_non_negative("max_bytes", std::int64_t{256} << 20))) {}

CacheVerifyReport MemoryCacheStore::verify() {
  const std::uint64_t count = entries_.stats().entries;
  return {count, count, {}};
}

std::vector<std::pair<std::string, std::string>> MemoryCacheStore::describe() const {
  const std::uint64_t max_bytes = entries_.max_bytes();
  return {{"location", "this process's memory (nothing persists)"},
          {"max bytes", max_bytes ? std::to_string(max_bytes) : "unbounded"}};
}

}  // namespace plexus::memory_cache
