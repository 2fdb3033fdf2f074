#include "mpi_environment.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <cstdlib>

namespace plexus::mpi {

bool launched_by_mpirun() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"}) {
    const char* value = std::getenv(variable);
    if (value && *value) return true;
  }
  return false;
}

std::string pin_mpi_libraries(const void* anchor) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&MPI_Init), &info) == 0 || !info.dli_fname)
    return "cannot find the MPI library's file (dladdr)";
  if (!dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL))
    return std::string("cannot make ") + info.dli_fname + " global: " + dlerror();
  if (anchor) {
    Dl_info self{};
    if (dladdr(anchor, &self) == 0 || !self.dli_fname ||
        !dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
      return "cannot keep the mpi backend's library loaded";
  }
  return {};
}

}  // namespace plexus::mpi
