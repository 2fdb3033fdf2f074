#include "mpi_environment.hpp"

#include <dlfcn.h>
#include <mpi.h>

#include <cstdint>
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

std::size_t shared_memory_eager_bytes() {
  // ob1's header in each eager fragment (sizeof(mca_pml_ob1_hdr_t), Open MPI 4.1: a
  // 4040-byte message goes eagerly under the default 4096, a 4048-byte one does not).
  constexpr std::size_t ob1_header_bytes = 56;
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return 0;
  std::size_t bytes = 0;
  int index = -1;
  char name[128];
  int name_length = sizeof name, verbosity = 0, bind = 0, scope = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_T_enum enumeration = MPI_T_ENUM_NULL;
  MPI_T_cvar_handle handle = MPI_T_CVAR_HANDLE_NULL;
  int count = 0;
  if (MPI_T_cvar_get_index("btl_vader_eager_limit", &index) == MPI_SUCCESS &&
      MPI_T_cvar_get_info(index, name, &name_length, &verbosity, &type, &enumeration, nullptr,
                          nullptr, &bind, &scope) == MPI_SUCCESS &&
      bind == MPI_T_BIND_NO_OBJECT &&
      MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) == MPI_SUCCESS) {
    // Read only as an integer type of known width, one value.
    unsigned long long value = 0;
    if (count == 1 && (type == MPI_UNSIGNED_LONG || type == MPI_UNSIGNED_LONG_LONG ||
                       type == MPI_LONG || type == MPI_LONG_LONG)) {
      static_assert(sizeof(unsigned long) == sizeof(unsigned long long));
      if (MPI_T_cvar_read(handle, &value) != MPI_SUCCESS) value = 0;
    } else if (count == 1 && (type == MPI_INT || type == MPI_UNSIGNED)) {
      unsigned int narrow = 0;
      if (MPI_T_cvar_read(handle, &narrow) == MPI_SUCCESS) value = narrow;
    }
    if (value > ob1_header_bytes && value < (std::uint64_t{1} << 30))
      bytes = (static_cast<std::size_t>(value) - ob1_header_bytes) & ~std::size_t{63};
    MPI_T_cvar_handle_free(&handle);
  }
  MPI_T_finalize();
  return bytes;
}

}  // namespace plexus::mpi
