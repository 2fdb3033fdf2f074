#include "wire.hpp"

#include <algorithm>
#include <cstring>

#include "messages.hpp"
#include "plexus/error.hpp"

namespace plexus::mpi {

namespace {

template <class T>
T load(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;  // little-endian hosts only (the hello's fingerprint checks both sides agree)
}

}  // namespace

namespace {
// Writer::recycle's buffer: this thread's next message is written into it.
thread_local std::vector<std::byte> spare_message;
constexpr std::size_t message_reserve = 256;  // most messages fit: one allocation at most
}  // namespace

void Writer::recycle(std::vector<std::byte>&& message) {
  if (message.capacity() >= message_reserve && message.capacity() <= 64 * message_reserve)
    spare_message = std::move(message);
}

Writer::Writer(std::uint32_t protocol, std::uint32_t type, std::uint64_t id)
    : bytes_(std::move(spare_message)) {
  bytes_.clear();
  bytes_.reserve(message_reserve);
  bytes_.resize(header_bytes);
  Header header;
  header.protocol = protocol;
  header.type = type;
  header.id = id;
  std::memcpy(bytes_.data(), &header.magic, 4);
  std::memcpy(bytes_.data() + 4, &header.protocol, 4);
  std::memcpy(bytes_.data() + 8, &header.type, 4);
  std::memcpy(bytes_.data() + 16, &header.id, 8);
}

void Writer::raw(const void* data, std::size_t bytes) {
  const auto* first = static_cast<const std::byte*>(data);
  bytes_.insert(bytes_.end(), first, first + bytes);
}
void Writer::u8(std::uint8_t value) { raw(&value, 1); }
void Writer::u32(std::uint32_t value) { raw(&value, 4); }
void Writer::u64(std::uint64_t value) { raw(&value, 8); }
void Writer::text(std::string_view value) {
  u64(value.size());
  raw(value.data(), value.size());
}
void Writer::block(std::span<const std::byte> value) {
  u64(value.size());
  raw(value.data(), value.size());
}
std::byte* Writer::block(std::size_t bytes) {
  u64(bytes);
  const std::size_t at = bytes_.size();
  bytes_.resize(at + bytes);
  return bytes_.data() + at;
}

std::vector<std::byte> Writer::finish() && {
  const std::uint64_t payload = bytes_.size() - header_bytes;
  std::memcpy(bytes_.data() + 24, &payload, 8);
  const std::uint32_t checksum = message_checksum(bytes_);
  std::memcpy(bytes_.data() + 12, &checksum, 4);
  return std::move(bytes_);
}

std::uint32_t message_checksum(std::span<const std::byte> message) {
  // FNV-1a's step on 64-bit words in four independent lanes (a byte at a time cost ~85 us
  // for a 64 KiB message; this is ~30x faster), lanes folded at the end.
  constexpr std::uint64_t prime = 0x100000001b3ULL;
  std::uint64_t lanes[4] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL, 0x9e3779b97f4a7c15ULL,
                            0xc2b2ae3d27d4eb4fULL};
  // The header's first 32 bytes with the checksum field (bytes 12-15) zeroed, then the rest.
  std::byte head[header_bytes] = {};
  const std::size_t head_bytes = std::min(message.size(), header_bytes);
  std::memcpy(head, message.data(), head_bytes);
  std::memset(head + 12, 0, 4);
  const auto mix = [&](const std::byte* block, std::size_t bytes) {
    std::size_t at = 0;
    for (; at + 32 <= bytes; at += 32)
      for (int lane = 0; lane < 4; ++lane)
        lanes[lane] = (lanes[lane] ^ load<std::uint64_t>(block + at + 8 * lane)) * prime;
    for (int lane = 0; at < bytes; ++lane) {
      std::uint64_t word = 0;
      const std::size_t take = std::min<std::size_t>(8, bytes - at);
      std::memcpy(&word, block + at, take);
      lanes[lane] = (lanes[lane] ^ word ^ (static_cast<std::uint64_t>(take) << 59)) * prime;
      at += take;
    }
  };
  mix(head, head_bytes);
  if (message.size() > header_bytes) mix(message.data() + header_bytes, message.size() - header_bytes);
  std::uint64_t hash = message.size();
  for (int lane = 0; lane < 4; ++lane) {
    hash ^= lanes[lane];
    hash *= 0x9e3779b97f4a7c15ULL;
    hash ^= hash >> 29;
  }
  return static_cast<std::uint32_t>(hash ^ (hash >> 32));
}

Header read_header(std::span<const std::byte> message, std::uint32_t protocol,
                   const std::string& from) {
  return read_header(message, protocol, std::function<std::string()>([&] { return from; }));
}

Header read_header(std::span<const std::byte> message, std::uint32_t protocol,
                   const std::function<std::string()>& from) {
  const auto fail = [&](const std::string& problem) {
    throw error(error_category::device, "mpi: corrupt message from " + from() + ": " + problem);
  };
  if (message.size() < header_bytes)
    fail("truncated: " + std::to_string(message.size()) + " bytes, shorter than the " +
         std::to_string(header_bytes) + "-byte header");
  Header header;
  header.magic = load<std::uint32_t>(message.data());
  header.protocol = load<std::uint32_t>(message.data() + 4);
  header.type = load<std::uint32_t>(message.data() + 8);
  header.checksum = load<std::uint32_t>(message.data() + 12);
  header.id = load<std::uint64_t>(message.data() + 16);
  header.payload_bytes = load<std::uint64_t>(message.data() + 24);
  if (header.magic != wire_magic) fail("not a Plexus message (bad magic number)");
  if (header.payload_bytes != message.size() - header_bytes)
    fail("truncated or padded: the header announces " + std::to_string(header.payload_bytes) +
         " payload bytes, " + std::to_string(message.size() - header_bytes) + " arrived");
  if (header.checksum != message_checksum(message)) fail("checksum mismatch");
  // The handshake's messages (types 1-3: hello, welcome, refuse) and protocol_error (a
  // reason) keep their layout in every protocol version, so that a mismatch is refused with
  // both versions named (a worker of protocol 7 or earlier answers a protocol-8 greeting
  // with a protocol error).
  static_assert(static_cast<std::uint32_t>(MessageType::protocol_error) == 21);
  if (header.protocol != protocol && header.type > 3 &&
      header.type != static_cast<std::uint32_t>(MessageType::protocol_error))
    fail("protocol " + std::to_string(header.protocol) + ", this side speaks protocol " +
         std::to_string(protocol));
  return header;
}

Reader::Reader(std::span<const std::byte> payload, std::string what)
    : payload_(payload), what_(std::move(what)) {}

Reader::Reader(std::span<const std::byte> payload, std::uint32_t type,
               std::function<std::string()> from)
    : payload_(payload), type_(type), from_(std::move(from)) {}

std::string Reader::what() const {
  if (!what_.empty() || !from_) return what_;
  return describe(type_, from_());
}

void Reader::fail(const std::string& problem) const {
  throw error(error_category::device, "mpi: invalid " + what() + ": " + problem + " (at byte " +
                                          std::to_string(offset_) + " of " +
                                          std::to_string(payload_.size()) + ")");
}

const std::byte* Reader::take(std::size_t bytes) {
  if (bytes > payload_.size() - offset_)
    fail("truncated: " + std::to_string(bytes) + " more bytes needed");
  const std::byte* at = payload_.data() + offset_;
  offset_ += bytes;
  return at;
}

std::uint8_t Reader::u8() { return load<std::uint8_t>(take(1)); }
std::uint32_t Reader::u32() { return load<std::uint32_t>(take(4)); }
std::uint64_t Reader::u64() { return load<std::uint64_t>(take(8)); }
bool Reader::boolean() {
  const std::uint8_t value = u8();
  if (value > 1) fail("a boolean is " + std::to_string(value));
  return value == 1;
}

std::uint64_t Reader::bounded(std::uint64_t limit, std::string_view field) {
  const std::uint64_t value = u64();
  if (value > limit)
    fail(std::string(field) + " is " + std::to_string(value) + ", more than " +
         std::to_string(limit));
  return value;
}

std::string Reader::text(std::size_t max_bytes) {
  const std::uint64_t size = bounded(max_bytes, "a string's length");
  const std::byte* at = take(size);
  return std::string(reinterpret_cast<const char*>(at), size);
}

std::span<const std::byte> Reader::block(std::uint64_t max_bytes) {
  const std::uint64_t size = bounded(max_bytes, "a block's length");
  return {take(size), size};
}

void Reader::end() const {
  if (offset_ != payload_.size())
    fail(std::to_string(payload_.size() - offset_) + " unexpected bytes after the end");
}

}  // namespace plexus::mpi
