#include "opencl_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, opencl, plexus::opencl::OpenclBackend, "0.1.0",
              "OpenCL devices through the ICD loader: SPIR-V, SPIR, PTX or OpenCL C")
