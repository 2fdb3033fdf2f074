#include "plexus/plugin.hpp"
#include "sqlite_cache_store.hpp"

PLEXUS_PLUGIN(cache, sqlite, plexus::sqlite_cache::SqliteCacheStore, "0.1.0",
              "persistent store in one SQLite file (WAL; BLAKE3 keys, checksummed entries, "
              "size and age eviction)")
