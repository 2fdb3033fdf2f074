#include "host_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, host, plexus::host::HostBackend, plexus::host::backend_version,
              "the host CPU (or shares of its cores): LLVM bitcode JIT-compiled in process")
