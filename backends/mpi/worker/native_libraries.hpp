// NativeLibraries: the shared libraries a worker loads for their native functions
// (`plexus worker --native-library LIB.so`): loading one runs its registrations
// (plexus::NativeFunction objects, native_function.hpp) into this process's registry, so that
// rank 0's native tasks that call them by name run on this worker's devices.
//
// Ownership: keeps the libraries loaded until destroyed (after every task that may call
// them). Thread-safety: construction and destruction on one thread.
#pragma once

#include <string>
#include <vector>

namespace plexus::mpi {

class NativeLibraries {
 public:
  // Loads each of `paths` (dlopen, RTLD_NOW | RTLD_LOCAL); throws plexus::error(plugin)
  // naming the library and the loader's reason, unloading those loaded before.
  explicit NativeLibraries(const std::vector<std::string>& paths);
  NativeLibraries() = default;
  ~NativeLibraries();
  NativeLibraries(const NativeLibraries&) = delete;
  NativeLibraries& operator=(const NativeLibraries&) = delete;

 private:
  std::vector<void*> handles_;
};

}  // namespace plexus::mpi
