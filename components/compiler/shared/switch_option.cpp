#include "switch_option.hpp"

#include <cstdlib>

#include "plexus/error.hpp"

namespace plexus::compiler_shared {

bool switch_option(const ComponentOptions& options, const std::string& key, const std::string& on,
                   const char* variable, const std::string& what_on, const std::string& what_off) {
  const std::string configured = options.get_one_of(key, {"none", on}, "none");
  if (const char* value = std::getenv(variable); value && *value) {
    const std::string text = value;
    if (text == "1" || text == on) return true;
    if (text == "0" || text == "none") return false;
    throw error(error_category::config, std::string(variable) + "='" + text + "': expected 1 or " +
                                            on + " (" + what_on + "), 0 or none (" + what_off +
                                            ")");
  }
  return configured == on;
}

}  // namespace plexus::compiler_shared
