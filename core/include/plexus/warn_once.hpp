// warn_once: a warning printed once per process, however many components (or reloads of
// a plugin, whose own statics start afresh) meet the same problem, e.g. a cache directory
// that cannot be written. Thread-safety: safe from any thread.
#pragma once

#include <string>

#include "plexus/export.hpp"

namespace plexus {

// Logs `message` at warn level unless this process already logged the same message through
// warn_once; returns whether it was logged now.
PLEXUS_API bool warn_once(const std::string& message);

}  // namespace plexus
