#include "toolchain_options.hpp"

#include "bounds_checks.hpp"
#include "cancel_points.hpp"
#include "host_device_library.hpp"

namespace plexus::compiler_shared {

ToolchainOptions read_toolchain_options(const ComponentOptions& options,
                                        const std::string& default_resource_dir,
                                        const std::string& default_libclc_dir) {
  ToolchainOptions read;
  read.resource_dir =
      options.get_or_env("resource_dir", "PLEXUS_CLANG_RESOURCE_DIR", default_resource_dir);
  read.libclc_dir = options.get_or_env("libclc_dir", "PLEXUS_LIBCLC_DIR", default_libclc_dir);
  read.host_device_library = host_device_library(options);
  read.bounds_checks = bounds_checks_enabled(options);
  read.cancel_points = cancel_points_enabled(options);
  read.max_errors = options.get_in_range("max_errors", ToolchainOptions::default_max_errors, 1,
                                         ToolchainOptions::most_max_errors);
  return read;
}

}  // namespace plexus::compiler_shared
