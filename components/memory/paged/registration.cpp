#include "paged_memory_model.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(memory, paged, plexus::memory::PagedMemoryModel, "0.1.0",
              "fixed 3D page grid per buffer (page_size option): page-granular conflicts and "
              "transfers")
