#include "plexus/count_option.hpp"

#include <cstdint>
#include <optional>

#include "plexus/error.hpp"

namespace plexus {

std::size_t auto_or_count_option(const ComponentOptions& options, const char* key,
                                 std::int64_t max, const std::string& what_to_give) {
  std::optional<std::int64_t> count;
  try {
    count = options.find<std::int64_t>(key);
  } catch (const error& not_integer) {
    // An integer or a string: ComponentOptions reads one type, so try the other.
    std::optional<std::string> text;
    try {
      text = options.find<std::string>(key);
    } catch (const error&) {
      throw error(error_category::config, std::string(not_integer.what()) + what_to_give);
    }
    if (*text == "auto") return 0;
    options.error(key, "is \"" + *text + "\"" + what_to_give);
  }
  if (!count) return 0;
  if (*count < 1 || *count > max)
    options.error(key, "is " + std::to_string(*count) + what_to_give);
  return static_cast<std::size_t>(*count);
}

}  // namespace plexus
