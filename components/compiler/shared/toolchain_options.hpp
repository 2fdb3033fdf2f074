// The options both compiler components (compiler/clang, compiler/process) read the same way,
// in one place: resource_dir (or PLEXUS_CLANG_RESOURCE_DIR), libclc_dir (or
// PLEXUS_LIBCLC_DIR), host_device_library (host_device_library.hpp) and checks
// (bounds_checks_enabled, PLEXUS_KERNEL_CHECKS), cancel (cancel_points_enabled,
// PLEXUS_KERNEL_CANCEL) and max_errors (the frontend stops after that many errors:
// FrontendOptions). Each component passes its own build-time
// defaults. A plain value; reading it throws plexus::error(config) for a bad value.
#pragma once

#include <cstdint>
#include <string>

#include "plexus/component_options.hpp"

namespace plexus::compiler_shared {

struct ToolchainOptions {
  std::string resource_dir;         // the clang resource directory
  std::string libclc_dir;           // libclc's bitcode
  std::string host_device_library;  // linked into llvm_bitcode output ("" none)
  bool bounds_checks = false;       // checks = "bounds"
  bool cancel_points = false;       // cancel = "work_group" (SPIR targets)
  // max_errors: errors before the frontend stops with a fatal "too many errors" (clang's
  // -ferror-limit; the clang driver's default is 19, -cc1 has none): a source with
  // millions of errors (a macro bomb) gives a log of a few lines, not millions.
  std::int64_t max_errors = default_max_errors;
  static constexpr std::int64_t default_max_errors = 20;
  static constexpr std::int64_t most_max_errors = 2147483647;  // clang keeps an unsigned
};

ToolchainOptions read_toolchain_options(const ComponentOptions& options,
                                        const std::string& default_resource_dir,
                                        const std::string& default_libclc_dir);

}  // namespace plexus::compiler_shared
