#include "disk_cache_store.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(cache, disk, plexus::disk_cache::DiskCacheStore, "0.1.0",
              "persistent store in a directory tree (BLAKE3 keys, checksummed entries, "
              "atomic writes, flock, size and age eviction, read-only layers)")
