// parse_byte_size: a size in bytes as people write it, for config keys and command-line
// options: "1048576", "256MiB", "1.5G", "64 KiB". Suffixes (case-insensitive, optional space
// before): B; K, KB, KiB; M, MB, MiB; G, GB, GiB; T, TB, TiB — all powers of 1024. A
// fraction is allowed with a suffix ("1.5G"); the result is rounded down to whole bytes.
// Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "plexus/export.hpp"

namespace plexus {

// The size, or nullopt for anything else (empty, negative, garbage, an unknown suffix, more
// than 2^64 - 1 bytes).
PLEXUS_API std::optional<std::uint64_t> parse_byte_size(std::string_view text);

}  // namespace plexus
