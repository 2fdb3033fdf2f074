// The LLVM OffloadBinary wrapper DPC++ puts around a SYCLBIN file (llvm/Object/OffloadBinary.h):
//   header (32 bytes): magic 10 FF 10 AD, u32 version, u64 size, u64 entries offset,
//                      u64 entries count (version 1: the entry size, 40)
//   entry (40 bytes):  u16 image kind, u16 offload kind, u32 flags, u64 string offset,
//                      u64 string count, u64 image offset, u64 image size
// written as version 2 with one entry (image kind 7 IMG_SYCLBIN, offload kind 8 OFK_SYCL, no
// strings) and the SYCLBIN image right after it, at byte 72.
// Pure functions, thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "plexus/syclbin/export.hpp"

namespace plexus::syclbin::offload_binary {

inline constexpr std::size_t header_size = 32;
inline constexpr std::size_t entry_size = 40;
inline constexpr std::uint32_t written_version = 2;
inline constexpr std::uint16_t image_kind_syclbin = 7;  // 6 in mid-2025 toolchains
inline constexpr std::uint16_t offload_kind_sycl = 8;   // OFK_SYCL = 1 << 3

PLEXUS_SYCLBIN_API bool has_magic(std::span<const std::byte> file);
// The SYCLBIN version 1 image inside an OffloadBinary: the first entry whose image starts
// with the SYCLBIN magic. Throws plexus::error(invalid_argument) naming the field and its
// offset when the header or an entry lies outside the file, or when no entry holds one.
PLEXUS_SYCLBIN_API std::span<const std::byte> find_syclbin_image(std::span<const std::byte> file);
PLEXUS_SYCLBIN_API std::vector<std::byte> wrap(std::span<const std::byte> syclbin);

}  // namespace plexus::syclbin::offload_binary
