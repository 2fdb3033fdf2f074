#include "my_cache.hpp"

#include "plexus/error.hpp"

namespace my_cache {

MyCacheStore::MyCacheStore(plexus::PluginContext& context) {
  // Options come from the config's `[cache.my_cache]` table, e.g.
  //   [cache.my_cache]
  //   directory = "/var/cache/my_cache"
  // Read every option you support (unread keys are reported as probable typos).
  directory_ = context.options.get<std::string>("directory", "");
  // TODO: open or create the store at directory_.
}

std::optional<std::vector<std::byte>> MyCacheStore::load(
    [[maybe_unused]] const plexus::CacheKey& key) {
  // TODO: look the key up; count stats_.hits or stats_.misses under mutex_.
  throw plexus::error(plexus::error_category::unsupported, "my_cache: load is not implemented yet");
}

void MyCacheStore::store([[maybe_unused]] const plexus::CacheKey& key,
                         [[maybe_unused]] std::span<const std::byte> value) {
  // TODO: write the entry atomically; count stats_.stores, entries and bytes.
  throw plexus::error(plexus::error_category::unsupported,
                      "my_cache: store is not implemented yet");
}

bool MyCacheStore::erase([[maybe_unused]] const plexus::CacheKey& key) {
  // TODO: remove the entry; return whether it existed.
  throw plexus::error(plexus::error_category::unsupported,
                      "my_cache: erase is not implemented yet");
}

plexus::CacheStats MyCacheStore::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace my_cache
