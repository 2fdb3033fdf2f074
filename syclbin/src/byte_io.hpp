// Little-endian loads and stores on byte buffers, independent of host order and alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace plexus::syclbin::detail {

inline std::uint64_t load_le(const std::byte* p, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) value |= std::uint64_t(p[i]) << (8 * i);
  return value;
}
inline std::uint16_t load_u16(const std::byte* p) { return std::uint16_t(load_le(p, 2)); }
inline std::uint32_t load_u32(const std::byte* p) { return std::uint32_t(load_le(p, 4)); }
inline std::uint64_t load_u64(const std::byte* p) { return load_le(p, 8); }

inline void store_le(std::vector<std::byte>& out, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out.push_back(std::byte((value >> (8 * i)) & 0xff));
}
inline void store_u16(std::vector<std::byte>& out, std::uint16_t v) { store_le(out, v, 2); }
inline void store_u32(std::vector<std::byte>& out, std::uint32_t v) { store_le(out, v, 4); }
inline void store_u64(std::vector<std::byte>& out, std::uint64_t v) { store_le(out, v, 8); }

inline void pad_to_8(std::vector<std::byte>& out) {
  while (out.size() % 8 != 0) out.push_back(std::byte{0});
}

inline std::string hex_bytes(const std::byte* p, std::size_t count) {
  std::string text;
  char buffer[4];
  for (std::size_t i = 0; i < count; ++i) {
    std::snprintf(buffer, sizeof buffer, "%02x", unsigned(p[i]));
    text += (i ? " " : "") + std::string(buffer);
  }
  return text;
}

}  // namespace plexus::syclbin::detail
