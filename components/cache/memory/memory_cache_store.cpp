#include "memory_cache_store.hpp"

namespace plexus::memory_cache {

namespace {
std::uint64_t max_bytes_option(const ComponentOptions& options) {
  return static_cast<std::uint64_t>(options.get_non_negative("max_bytes", std::int64_t{256} << 20));
}
}  // namespace

MemoryCacheStore::MemoryCacheStore(PluginContext& context)
    : entries_(max_bytes_option(context.options)) {}

void MemoryCacheStore::check_options(const ComponentOptions& options) { max_bytes_option(options); }

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
