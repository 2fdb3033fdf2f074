#include "shared_library.hpp"

#include <dlfcn.h>

#include <plexus/error.hpp>

namespace examples {

SharedLibrary::SharedLibrary(std::string what, const std::vector<std::string>& names,
                             const std::vector<std::string>& directories,
                             const std::string& how_to_get)
    : what_(std::move(what)) {
  std::string tried;
  const auto attempt = [&](const std::string& path) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      loaded_ = path;
      return true;
    }
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + path + " (" + (why ? why : "not found") + ")";
    return false;
  };
  for (const std::string& name : names)
    if (attempt(name)) return;
  for (const std::string& directory : directories)
    for (const std::string& name : names)
      if (attempt(directory + "/" + name)) return;
  throw plexus::error(plexus::error_category::unsupported,
                      what_ + " is missing: tried " + tried + ". " + how_to_get);
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::address(const char* name) const {
  dlerror();
  void* found = dlsym(handle_, name);
  if (!found)
    throw plexus::error(plexus::error_category::unsupported,
                        what_ + " (" + loaded_ + ") has no entry point '" + name +
                            "': it is too old or not the library expected");
  return found;
}

}  // namespace examples
