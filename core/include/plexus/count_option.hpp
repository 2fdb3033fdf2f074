// count_option: reads a component option that is "auto" or an integer >= 1 (a number of
// queues, of tasks at once, ...), as schedulers' per-device options are.
// Thread-safety: a free function over its arguments only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "plexus/component_options.hpp"
#include "plexus/export.hpp"

namespace plexus {

// The option `key`: 0 when it is absent or "auto" (the caller's default applies), else the
// integer, from 1 to `max` (the option's documented range). Anything else (0, a negative
// number, a number above `max`, another string, another type) is
// plexus::error(config) (ComponentOptions::error: where, the key and the value), then `what_to_give`
// (e.g. ": give \"auto\" or an integer >= 1").
PLEXUS_API std::size_t auto_or_count_option(const ComponentOptions& options, const char* key,
                                            std::int64_t max, const std::string& what_to_give);

}  // namespace plexus
