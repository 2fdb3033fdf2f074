#include "mpi_backend.hpp"
#include "plexus/plugin.hpp"

PLEXUS_PLUGIN(backend, mpi, plexus::mpi::MpiBackend, plexus::mpi::backend_version,
              "the devices of other nodes: workers (`plexus worker`) on the other ranks of an "
              "MPI job")
