#include "plexus/plugin.hpp"
#include "whole_memory_model.hpp"

PLEXUS_PLUGIN(memory, whole, plexus::memory::WholeMemoryModel, "0.1.0",
              "one page per buffer: whole-buffer conflicts and transfers")
