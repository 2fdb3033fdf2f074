#include "host_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, host, plexus::host::HostBackend, plexus::host::backend_version,
              "the host CPU: one device, LLVM bitcode JIT-compiled in process")
