#include "plexus/syclbin/base64.hpp"

#include <cstdint>
#include <cstdio>

#include "plexus/error.hpp"

namespace plexus::syclbin::base64 {

namespace {

constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int value_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

std::string describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02x", u);
  return buffer;
}

}  // namespace

std::size_t encoded_size(std::size_t byte_count) { return (byte_count * 8 + 5) / 6; }

std::string encode(std::span<const std::byte> bytes) {
  std::string text;
  text.reserve(encoded_size(bytes.size()));
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const unsigned b0 = unsigned(bytes[i]), b1 = unsigned(bytes[i + 1]), b2 = unsigned(bytes[i + 2]);
    text += alphabet[b0 & 63];
    text += alphabet[((b1 << 2) | (b0 >> 6)) & 63];
    text += alphabet[((b2 << 4) | (b1 >> 4)) & 63];
    text += alphabet[b2 >> 2];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 1) {
    const unsigned b0 = unsigned(bytes[i]);
    text += alphabet[b0 & 63];
    text += alphabet[b0 >> 6];
  } else if (rest == 2) {
    const unsigned b0 = unsigned(bytes[i]), b1 = unsigned(bytes[i + 1]);
    text += alphabet[b0 & 63];
    text += alphabet[((b1 << 2) | (b0 >> 6)) & 63];
    text += alphabet[b1 >> 4];
  }
  return text;
}

std::vector<std::byte> decode(std::string_view text) {
  if (text.size() % 4 == 1) {
    throw error(error_category::invalid_argument,
                "base64 text of " + std::to_string(text.size()) +
                    " characters is truncated (no byte count encodes to 4k+1 characters)");
  }
  std::vector<std::byte> bytes;
  bytes.reserve(text.size() * 3 / 4);
  std::uint32_t bits = 0;  // pending bits, least significant first
  int bit_count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const int value = value_of(text[i]);
    if (value < 0) {
      throw error(error_category::invalid_argument,
                  "invalid base64 character " + describe(text[i]) + " at position " +
                      std::to_string(i));
    }
    bits |= std::uint32_t(value) << bit_count;
    bit_count += 6;
    if (bit_count >= 8) {
      bytes.push_back(std::byte(bits & 0xff));
      bits >>= 8;
      bit_count -= 8;
    }
  }
  return bytes;
}

}  // namespace plexus::syclbin::base64
