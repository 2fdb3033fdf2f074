#include "memory_cache_store.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(cache, memory, plexus::memory_cache::MemoryCacheStore, "0.1.0",
              "bounded in-process store of build results (LRU by bytes; nothing on disk)")
