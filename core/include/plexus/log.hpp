// Logging: one spdlog logger named "plexus" shared by the core and every plugin.
// Level from the config's `[log] level` or PLEXUS_LOG_LEVEL (trace, debug, info, warn,
// error, critical, off). Thread-safety: spdlog loggers are thread-safe.
#pragma once

#include <spdlog/logger.h>

#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

PLEXUS_API spdlog::logger& logger();
// Throws plexus::error(config) for an unknown level name.
PLEXUS_API void set_log_level(std::string_view level);

}  // namespace plexus
