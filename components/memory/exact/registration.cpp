#include "exact_memory_model.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(memory, exact, plexus::memory::ExactMemoryModel, "0.1.0",
              "exact box sets: no false sharing, minimum transfers, no page size to tune")
