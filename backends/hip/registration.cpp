#include "hip_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, hip, plexus::hip::HipBackend, "0.1.0",
              "AMD GPUs through the HIP runtime (loaded at run time): AMDGCN code objects")
