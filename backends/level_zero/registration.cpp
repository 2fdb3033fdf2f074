#include "plexus/plugin.hpp"
#include "ze_backend.hpp"

PLEXUS_PLUGIN(backend, level_zero, plexus::level_zero::ZeBackend, "0.1.0",
              "Intel GPUs (and other Level Zero devices) through the Level Zero loader (loaded "
              "at run time): SPIR-V")
