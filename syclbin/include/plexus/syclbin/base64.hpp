// The base64 variant DPC++ uses for byte-array properties (llvm/lib/Support/Base64.cpp in
// intel/llvm). NOT RFC 4648: the standard alphabet, but the bits of each byte are taken
// least-significant first and there is no '=' padding. For bytes b0 b1 b2:
//   c0 = b0 & 63, c1 = ((b1 << 2) | (b0 >> 6)) & 63, c2 = ((b2 << 4) | (b1 >> 4)) & 63,
//   c3 = b2 >> 2; n bytes give ceil(8n / 6) characters (a last group of 1 or 2 bytes gives
// 2 or 3 characters).
// Pure functions, thread-safe.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/syclbin/export.hpp"

namespace plexus::syclbin::base64 {

PLEXUS_SYCLBIN_API std::size_t encoded_size(std::size_t byte_count);
PLEXUS_SYCLBIN_API std::string encode(std::span<const std::byte> bytes);
// Throws plexus::error(invalid_argument) naming the position of a character outside the
// alphabet, or a length no byte count encodes to (4k + 1 characters).
PLEXUS_SYCLBIN_API std::vector<std::byte> decode(std::string_view text);

}  // namespace plexus::syclbin::base64
