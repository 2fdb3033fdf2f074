// What the persistent cache stores share: key digests (BLAKE3 from the shared libLLVM),
// the key record (`.src`, or the key columns) and the entry record (header, checksum,
// optional zstd). Both records are self-checking: a truncated, corrupted or hand-edited
// record decodes to an error message, never to data.
//
// Entry record, little-endian:
//   0  "PLXCACHE"                 magic
//   8  u32 format version (1)     another version is not read (reported as a bad entry)
//   12 u32 flags                  bit 0: the payload is zstd-compressed
//   16 u64 value size             size of the value after decompression
//   24 u64 payload size           bytes after the header
//   32 u8[32] key digest          BLAKE3 of the full key: the entry belongs to that key
//   64 u8[16] checksum            BLAKE3-128 over bytes 0..63 and the payload
//   80 payload
// Key record: "PLXCKEY1", u32 version, then the four key fields (u64 length + bytes),
// then a BLAKE3-128 checksum of everything before it.
// Thread-safety: free functions without shared state.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "plexus/cache_store.hpp"

namespace plexus::cache_codec {

using Digest = std::array<std::uint8_t, 32>;

constexpr std::uint32_t entry_format_version = 1;
constexpr std::size_t entry_header_size = 80;

enum class Compression { none, zstd };
Compression parse_compression(const std::string& text, const std::string& option_path);

std::string hex(std::span<const std::uint8_t> bytes);
// BLAKE3 over the length-prefixed key fields.
Digest key_digest(const CacheKey& key);
// 32 hex digits of BLAKE3 of one key field (a directory name).
std::string field_hash(const std::string& field);

std::vector<std::byte> encode_key(const CacheKey& key);
// The key, or the reason the record is unusable.
std::variant<CacheKey, std::string> decode_key(std::span<const std::byte> record);

std::vector<std::byte> encode_entry(std::span<const std::byte> value, const Digest& key,
                                    Compression compression, int level = 3);

struct EntryHeader {
  std::uint32_t flags = 0;
  std::uint64_t value_size = 0;
  std::uint64_t payload_size = 0;
  Digest key{};
};
// The header of a record (for listings), or the reason it is unusable; checks the magic,
// version and that the record has exactly the size the header says (not the checksum).
std::variant<EntryHeader, std::string> peek_entry(std::span<const std::byte> record_head,
                                                  std::uint64_t record_size);
// The value, or the reason the record is unusable: bad magic, version, size, checksum,
// another key, or a payload that does not decompress to the recorded size.
std::variant<std::vector<std::byte>, std::string> decode_entry(std::span<const std::byte> record,
                                                               const Digest* expected_key);

}  // namespace plexus::cache_codec
