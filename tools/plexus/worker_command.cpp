// `plexus worker`: serves this node's devices to rank 0 of an MPI job (backends/mpi).
#include <iostream>

#include "commands.hpp"

#ifdef PLEXUS_HAVE_MPI_WORKER
namespace plexus::mpi {
int worker_main(const std::vector<std::string>& args);
}
#endif

namespace plexus::tool {

int worker_command(const std::vector<std::string>& args) {
#ifdef PLEXUS_HAVE_MPI_WORKER
  return plexus::mpi::worker_main(args);
#else
  (void)args;
  std::cerr << "plexus worker: this build has no mpi backend (it needs MPI at build time: "
               "Debian libopenmpi-dev, then reconfigure)\n";
  return 1;
#endif
}

}  // namespace plexus::tool
