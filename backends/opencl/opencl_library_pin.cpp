#include "opencl_library_pin.hpp"

#include <dlfcn.h>

#include <mutex>

#include "plexus/log.hpp"

namespace plexus::opencl {

void keep_library_loaded() noexcept {
  static std::once_flag pinned;
  std::call_once(pinned, [] {
    Dl_info info{};
    const bool found = dladdr(reinterpret_cast<void*>(&keep_library_loaded), &info) != 0 &&
                       info.dli_fname != nullptr;
    // RTLD_NOLOAD: only takes a reference to the loaded library, which NODELETE keeps.
    if (found && dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) return;
    const char* reason = found ? dlerror() : "dladdr found no library";
    logger().warn(
        "opencl backend: could not keep the plugin library loaded ({}); a driver callback "
        "may still run in it when the runtime unloads it",
        reason ? reason : "dlopen failed");
  });
}

}  // namespace plexus::opencl
