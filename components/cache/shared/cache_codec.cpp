#include "cache_codec.hpp"

#include <zstd.h>

#include <cstring>

#include <llvm/Support/BLAKE3.h>

#include "plexus/error.hpp"

namespace plexus::cache_codec {

namespace {

constexpr char entry_magic[8] = {'P', 'L', 'X', 'C', 'A', 'C', 'H', 'E'};
constexpr char key_magic[8] = {'P', 'L', 'X', 'C', 'K', 'E', 'Y', '1'};
constexpr std::uint32_t key_format_version = 1;
constexpr std::uint32_t flag_zstd = 1;

void put32(std::vector<std::byte>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
void put64(std::vector<std::byte>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
std::uint64_t get(std::span<const std::byte> in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t(std::to_integer<std::uint8_t>(in[at + i])) << (8 * i);
  return v;
}
llvm::ArrayRef<std::uint8_t> ref(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()};
}
void update_field(llvm::BLAKE3& hasher, const std::string& field) {
  std::uint8_t prefix[8];
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<std::uint8_t>(std::uint64_t(field.size()) >> (8 * i));
  hasher.update(llvm::ArrayRef<std::uint8_t>(prefix, 8));
  hasher.update(llvm::StringRef(field.data(), field.size()));
}
std::array<std::uint8_t, 16> checksum(std::span<const std::byte> a, std::span<const std::byte> b = {}) {
  llvm::BLAKE3 hasher;
  hasher.update(ref(a));
  if (!b.empty()) hasher.update(ref(b));
  return hasher.final<16>();
}
bool same(std::span<const std::byte> bytes, std::span<const std::uint8_t> expected) {
  return bytes.size() == expected.size() && std::memcmp(bytes.data(), expected.data(), bytes.size()) == 0;
}

}  // namespace

Compression parse_compression(const std::string& text, const std::string& option_path) {
  if (text == "none" || text.empty()) return Compression::none;
  if (text == "zstd") return Compression::zstd;
  throw error(error_category::config, "option '" + option_path + "' must be \"none\" or \"zstd\", found \"" +
                                          text + "\"");
}

std::string hex(std::span<const std::uint8_t> bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::uint8_t b : bytes) {
    out.push_back(digits[b >> 4]);
    out.push_back(digits[b & 15]);
  }
  return out;
}

Digest key_digest(const CacheKey& key) {
  llvm::BLAKE3 hasher;
  hasher.update(llvm::StringRef("plexus cache key v1"));
  for (const std::string* field : {&key.device, &key.image, &key.spec_constants, &key.build_options})
    update_field(hasher, *field);
  return hasher.final<32>();
}

std::string field_hash(const std::string& field) {
  llvm::BLAKE3 hasher;
  update_field(hasher, field);
  return hex(hasher.final<16>());
}

std::vector<std::byte> encode_key(const CacheKey& key) {
  std::vector<std::byte> out;
  for (char c : key_magic) out.push_back(static_cast<std::byte>(c));
  put32(out, key_format_version);
  for (const std::string* field : {&key.device, &key.image, &key.spec_constants, &key.build_options}) {
    put64(out, field->size());
    for (char c : *field) out.push_back(static_cast<std::byte>(c));
  }
  const auto sum = checksum(out);
  for (auto b : sum) out.push_back(static_cast<std::byte>(b));
  return out;
}

std::variant<CacheKey, std::string> decode_key(std::span<const std::byte> record) {
  if (record.size() < 12 + 32 + 16) return std::string("key record truncated");
  if (std::memcmp(record.data(), key_magic, 8) != 0) return std::string("key record has a bad magic");
  if (get(record, 8, 4) != key_format_version)
    return "key record of format version " + std::to_string(get(record, 8, 4));
  const auto body = record.first(record.size() - 16);
  if (!same(record.last(16), checksum(body))) return std::string("key record checksum mismatch");
  CacheKey key;
  std::size_t at = 12;
  for (std::string* field : {&key.device, &key.image, &key.spec_constants, &key.build_options}) {
    if (at + 8 > body.size()) return std::string("key record truncated");
    const std::uint64_t size = get(body, at, 8);
    at += 8;
    if (size > body.size() - at) return std::string("key record truncated");
    field->assign(reinterpret_cast<const char*>(body.data() + at), size);
    at += size;
  }
  if (at != body.size()) return std::string("key record has trailing bytes");
  return key;
}

std::vector<std::byte> encode_entry(std::span<const std::byte> value, const Digest& key,
                                    Compression compression, int level) {
  std::vector<std::byte> payload;
  std::uint32_t flags = 0;
  if (compression == Compression::zstd && !value.empty()) {
    payload.resize(ZSTD_compressBound(value.size()));
    const std::size_t size = ZSTD_compress(payload.data(), payload.size(), value.data(), value.size(), level);
    if (!ZSTD_isError(size) && size < value.size()) {
      payload.resize(size);
      flags |= flag_zstd;
    } else {
      payload.clear();
    }
  }
  const std::span<const std::byte> body = (flags & flag_zstd) ? std::span<const std::byte>(payload) : value;
  std::vector<std::byte> out;
  out.reserve(entry_header_size + body.size());
  for (char c : entry_magic) out.push_back(static_cast<std::byte>(c));
  put32(out, entry_format_version);
  put32(out, flags);
  put64(out, value.size());
  put64(out, body.size());
  for (auto b : key) out.push_back(static_cast<std::byte>(b));
  const auto sum = checksum(out, body);
  for (auto b : sum) out.push_back(static_cast<std::byte>(b));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::variant<EntryHeader, std::string> peek_entry(std::span<const std::byte> head, std::uint64_t record_size) {
  if (head.size() < entry_header_size || record_size < entry_header_size) return std::string("entry truncated (no header)");
  if (std::memcmp(head.data(), entry_magic, 8) != 0) return std::string("entry has a bad magic");
  if (get(head, 8, 4) != entry_format_version)
    return "entry of format version " + std::to_string(get(head, 8, 4)) + " (this build reads " +
           std::to_string(entry_format_version) + ")";
  EntryHeader header;
  header.flags = static_cast<std::uint32_t>(get(head, 12, 4));
  header.value_size = get(head, 16, 8);
  header.payload_size = get(head, 24, 8);
  std::memcpy(header.key.data(), head.data() + 32, 32);
  if (header.payload_size != record_size - entry_header_size)
    return "entry size mismatch (header says " + std::to_string(header.payload_size) + " payload bytes, found " +
           std::to_string(record_size - entry_header_size) + ")";
  if (header.flags & ~flag_zstd) return std::string("entry has unknown flags");
  if (!(header.flags & flag_zstd) && header.value_size != header.payload_size)
    return std::string("entry size mismatch (uncompressed)");
  return header;
}

std::variant<std::vector<std::byte>, std::string> decode_entry(std::span<const std::byte> record,
                                                               const Digest* expected_key) {
  auto peeked = peek_entry(record, record.size());
  if (auto* reason = std::get_if<std::string>(&peeked)) return *reason;
  const EntryHeader& header = std::get<EntryHeader>(peeked);
  const auto body = record.subspan(entry_header_size);
  if (!same(record.subspan(64, 16), checksum(record.first(64), body))) return std::string("entry checksum mismatch");
  if (expected_key && header.key != *expected_key) return std::string("entry belongs to another key");
  if (!(header.flags & flag_zstd)) return std::vector<std::byte>(body.begin(), body.end());
  if (header.value_size > (std::uint64_t{1} << 40)) return std::string("entry value size is implausible");
  std::vector<std::byte> value(header.value_size);
  const std::size_t size = ZSTD_decompress(value.data(), value.size(), body.data(), body.size());
  if (ZSTD_isError(size) || size != value.size()) return std::string("entry does not decompress");
  return value;
}

}  // namespace plexus::cache_codec
