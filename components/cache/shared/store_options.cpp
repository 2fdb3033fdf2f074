#include "store_options.hpp"

#include <string>

namespace plexus::cache_codec {

StoreOptions read_store_options(const ComponentOptions& options) {
  StoreOptions out;
  out.max_bytes = static_cast<std::uint64_t>(options.get_non_negative("max_bytes", std::int64_t{1} << 30));
  const std::int64_t days = options.get_in_range("max_age_days", 30, 0, max_age_days_limit, "days");
  if (days > 0) out.max_age = std::chrono::hours(24) * days;
  out.compression = parse_compression(options.get<std::string>("compression", "none"),
                                      options.table_path() + ".compression");
  out.compression_level = static_cast<int>(options.get_in_range("compression_level", 3, 1, 22));
  out.fixed_hash = options.get<bool>("test_fixed_hash", false);
  out.pause_before_publish =
      std::chrono::milliseconds(options.get_in_range("test_pause_before_publish_ms", 0, 0, 60000, "ms"));
  return out;
}

}  // namespace plexus::cache_codec
