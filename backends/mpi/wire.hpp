// Wire encoding of the mpi backend's control messages: a fixed header (magic, protocol,
// type, request id, payload size, checksum over header and payload) and a payload of
// little-endian integers, length-prefixed strings and byte blocks.
//
// Reader checks every read against the bytes received and every string/block length
// against a limit, and throws plexus::error(device) naming the message, its sender and the
// offset: a corrupt, truncated or unexpected message is an error, never a crash.
// Thread-safety: a Writer or Reader is used by one thread at a time; free functions are pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plexus::mpi {

inline constexpr std::uint32_t wire_magic = 0x4d584c50;  // "PLXM"
inline constexpr std::size_t header_bytes = 32;
// The largest control message accepted (module binaries travel in control messages).
inline constexpr std::uint64_t max_message_bytes = std::uint64_t{1} << 31;

struct Header {
  std::uint32_t magic = wire_magic;
  std::uint32_t protocol = 0;
  std::uint32_t type = 0;
  std::uint32_t checksum = 0;
  std::uint64_t id = 0;
  std::uint64_t payload_bytes = 0;
};

// Builds one message: header first (filled in by finish()), then the payload.
class Writer {
 public:
  Writer(std::uint32_t protocol, std::uint32_t type, std::uint64_t id);

  void u8(std::uint8_t value);
  void u32(std::uint32_t value);
  void u64(std::uint64_t value);
  void boolean(bool value) { u8(value ? 1 : 0); }
  void text(std::string_view value);
  void block(std::span<const std::byte> value);
  // A block of `bytes` bytes that the caller fills through the pointer returned (valid until
  // the next write), without an intermediate buffer.
  std::byte* block(std::size_t bytes);

  // The message's bytes so far, header included.
  std::size_t size() const { return bytes_.size(); }

  // Writes the header (payload size, checksum) and hands out the message.
  std::vector<std::byte> finish() &&;
  // A sent message's buffer, kept for this thread's next Writer (no allocation per message
  // where a thread sends what it writes, as an operation's sender and its report do).
  static void recycle(std::vector<std::byte>&& message);

 private:
  void raw(const void* data, std::size_t bytes);
  std::vector<std::byte> bytes_;
};

// FNV-1a's step over 64-bit words in four lanes, folded to 32 bits, over the header with
// its checksum field zeroed, then the payload (word-wise: a 64 KiB message in microseconds).
std::uint32_t message_checksum(std::span<const std::byte> message);

// Decodes and checks a message's header against the bytes received: magic, protocol,
// payload size and checksum. Another protocol is accepted for the messages whose layout
// every protocol keeps (hello, welcome, refuse, protocol_error), so that a mismatch is
// named with both versions. `from` names the sender ("node 'vm' rank 2"), called only to
// build an error (a valid message builds no strings).
Header read_header(std::span<const std::byte> message, std::uint32_t protocol,
                   const std::function<std::string()>& from);
Header read_header(std::span<const std::byte> message, std::uint32_t protocol,
                   const std::string& from);

// Reads the payload of a message whose header read_header accepted.
class Reader {
 public:
  // `what` names the message in errors ("message 'launch' from rank 0"). The payload's
  // bytes (and every block() read from them) are the caller's: valid while it reads.
  Reader(std::span<const std::byte> payload, std::string what);
  // The same, with the name built only for an error: describe(type, from()) (messages.hpp).
  Reader(std::span<const std::byte> payload, std::uint32_t type, std::function<std::string()> from);

  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  bool boolean();
  // A value that must fit `limit` (inclusive): a count, an index, a size.
  std::uint64_t bounded(std::uint64_t limit, std::string_view field);
  std::string text(std::size_t max_bytes = 1 << 20);
  std::span<const std::byte> block(std::uint64_t max_bytes = max_message_bytes);
  // Throws when bytes are left over (a message longer than its type says).
  void end() const;
  [[noreturn]] void fail(const std::string& problem) const;
  std::string what() const;

 private:
  const std::byte* take(std::size_t bytes);
  std::span<const std::byte> payload_;
  std::size_t offset_ = 0;
  std::string what_;  // or, when empty, describe(type_, from_())
  std::uint32_t type_ = 0;
  std::function<std::string()> from_;
};

}  // namespace plexus::mpi
