#include "plexus/warn_once.hpp"

#include <mutex>
#include <set>

#include "plexus/log.hpp"

namespace plexus {

bool warn_once(const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  {
    std::lock_guard lock(mutex);
    if (!seen.insert(message).second) return false;
  }
  logger().warn("{}", message);
  return true;
}

}  // namespace plexus
