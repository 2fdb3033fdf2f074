// SharedLibrary: a vendor library opened at run time (dlopen), for libraries that are
// optional at build time (cuBLAS, cuSOLVER, the CUDA driver): the program builds and runs
// without them, and says which one is missing and how to get it when it needs one.
//
// The first of `names` that loads wins: each name as dlopen searches it (LD_LIBRARY_PATH,
// the ld.so cache, ...), then in each of `directories`. RTLD_NOW | RTLD_LOCAL. When none
// loads: plexus::error(unsupported) "<what> is missing: tried <name> (<dlerror>), ...;
// <how_to_get>". A symbol the library lacks: plexus::error(unsupported) naming both.
//
// Ownership: the library stays loaded until the object goes (vendor libraries that keep
// state until exit are best held for the whole process: see CudaLibraries).
// Thread-safety: symbol() is safe from any thread; the object is immutable after
// construction.
#pragma once

#include <string>
#include <vector>

namespace examples {

class SharedLibrary {
 public:
  SharedLibrary(std::string what, const std::vector<std::string>& names,
                const std::vector<std::string>& directories, const std::string& how_to_get);
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary();

  // The name (or path) that loaded, e.g. "libcublas.so.13".
  const std::string& loaded_name() const { return loaded_; }

  // The entry point `name` as a function pointer of type F (F = decltype(&prototype)).
  template <class F>
  F symbol(const char* name) const {
    return reinterpret_cast<F>(address(name));
  }
  void* address(const char* name) const;

 private:
  std::string what_;
  std::string loaded_;
  void* handle_ = nullptr;
};

}  // namespace examples
