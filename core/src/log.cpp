#include "plexus/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <string>

#include "plexus/error.hpp"

namespace plexus {

namespace {
std::shared_ptr<spdlog::logger> make_logger() {
  // Logs go to stderr so that tool output on stdout stays machine-readable.
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  auto created = std::make_shared<spdlog::logger>("plexus", sink);
  created->set_pattern("[plexus %^%l%$] %v");
  created->set_level(spdlog::level::warn);  // quiet by default (config/default.toml)
  if (const char* env = std::getenv("PLEXUS_LOG_LEVEL")) {
    auto level = spdlog::level::from_str(env);
    if (level != spdlog::level::off || std::string(env) == "off") created->set_level(level);
  }
  return created;
}
}  // namespace

spdlog::logger& logger() {
  static std::shared_ptr<spdlog::logger> instance = make_logger();
  return *instance;
}

void set_log_level(std::string_view level) {
  auto parsed = spdlog::level::from_str(std::string(level));
  if (parsed == spdlog::level::off && level != "off") {
    throw error(error_category::config,
                "unknown log level '" + std::string(level) +
                    "' (expected one of: trace, debug, info, warn, error, critical, off)");
  }
  logger().set_level(parsed);
}

}  // namespace plexus
