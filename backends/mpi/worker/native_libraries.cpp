#include "native_libraries.hpp"

#include <dlfcn.h>

#include "plexus/error.hpp"

namespace plexus::mpi {

NativeLibraries::NativeLibraries(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* reason = dlerror();
      const std::string why = reason ? reason : "unknown reason";
      for (void* loaded : handles_) dlclose(loaded);
      handles_.clear();
      throw error(error_category::plugin,
                  "cannot load native library '" + path + "': " + why);
    }
    handles_.push_back(handle);
  }
}

NativeLibraries::~NativeLibraries() {
  for (auto it = handles_.rbegin(); it != handles_.rend(); ++it) dlclose(*it);
}

}  // namespace plexus::mpi
