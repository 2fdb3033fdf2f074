// The options cache/disk and cache/sqlite share, read and range-checked in one place
// (errors name the config file:line:col, the key, the range and the value):
//   max_bytes                    0 or more, default 1073741824 (1 GiB); 0 = unbounded
//   max_age_days                 0..36500, default 30; 0 = no age limit (the upper bound
//                                keeps the age, in nanoseconds, inside 64 bits)
//   compression                  "none" (default) or "zstd"
//   compression_level            1..22 (zstd's levels), default 3
//   test_fixed_hash              TEST ONLY: every key gets the same address
//   test_pause_before_publish_ms TEST ONLY: 0..60000, default 0
// Thread-safety: a plain value.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "cache_codec.hpp"
#include "plexus/component_options.hpp"

namespace plexus::cache_codec {

struct StoreOptions {
  std::uint64_t max_bytes = 0;
  std::optional<std::chrono::seconds> max_age;
  Compression compression = Compression::none;
  int compression_level = 3;
  bool fixed_hash = false;
  std::chrono::milliseconds pause_before_publish{0};
};

inline constexpr std::int64_t max_age_days_limit = 36500;

StoreOptions read_store_options(const ComponentOptions& options);

}  // namespace plexus::cache_codec
