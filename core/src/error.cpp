#include "plexus/error.hpp"

namespace plexus {

std::string_view to_string(error_category category) {
  switch (category) {
    case error_category::config: return "config";
    case error_category::plugin: return "plugin";
    case error_category::unsupported: return "unsupported";
    case error_category::invalid_argument: return "invalid argument";
    case error_category::device: return "device";
    case error_category::build: return "build";
    case error_category::io: return "io";
    case error_category::internal: return "internal";
    case error_category::resource: return "resource";
    case error_category::cancelled: return "cancelled";
  }
  return "unknown";
}

error::error(error_category category, const std::string& message)
    : std::runtime_error(message), category_(category) {}

error::~error() = default;

}  // namespace plexus
