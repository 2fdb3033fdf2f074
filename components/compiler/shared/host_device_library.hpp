// The default host device library: the bitcode (work-item functions, barriers, atomics,
// math) that the compiler components link into llvm_bitcode output unless their
// `host_device_library` option says otherwise. Built by backends/host/device_library.
// Pure function of the file system; thread-safe.
#pragma once

#include <string>

#include "plexus/component_options.hpp"

namespace plexus::compiler_shared {

// The option `host_device_library` when present (an empty string disables linking), else
// PLEXUS_HOST_DEVICE_LIBRARY when set, else the build tree's library when it exists, else
// the installed one when it exists, else empty (work-item functions stay external).
std::string host_device_library(const ComponentOptions& options);

}  // namespace plexus::compiler_shared
