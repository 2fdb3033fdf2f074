#include "host_device_library.hpp"

#include <cstdlib>
#include <filesystem>

namespace plexus::compiler_shared {

std::string host_device_library(const ComponentOptions& options) {
  if (std::optional<std::string> chosen = options.find<std::string>("host_device_library"))
    return *chosen;
  if (const char* environment = std::getenv("PLEXUS_HOST_DEVICE_LIBRARY");
      environment && *environment)
    return environment;
  std::error_code ignored;
  for (const char* candidate :
       {PLEXUS_HOST_DEVICE_LIBRARY_BUILD, PLEXUS_HOST_DEVICE_LIBRARY_INSTALL}) {
    if (std::filesystem::is_regular_file(candidate, ignored)) return candidate;
  }
  return {};
}

}  // namespace plexus::compiler_shared
