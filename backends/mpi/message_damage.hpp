// MessageDamage: the test hook PLEXUS_MPI_TEST_CORRUPT, which damages control messages as
// they leave a process, so that tests reach every check of the receiving side.
//
//   PLEXUS_MPI_TEST_CORRUPT="WHICH[>DEST]:MODE[@RANK],..."
//
// WHICH is N (the N-th control message this process sends, heartbeats not counted) or
// TYPE.N (the N-th message of that type: `done.1`, `launch.2`); >DEST counts only the
// messages to rank DEST (`notify.1>3`: the first notify to rank 3); RANK limits an item to
// the process of that rank (every process without it). Several items may name one process.
// MODE:
//   flip      a payload byte changed (the checksum no longer matches)
//   truncate  half the message (the header announces more than arrives)
//   type      an unknown message type, the checksum right
// and, resealed (header and checksum right, so that the payload's own checks are reached):
//   cut       the payload one byte short (a truncated field)
//   pad       one byte more (bytes after the end)
//   ahead     the payload's second 64-bit word 1000 more: the operation number of a queue's
//             operations (copy_in, copy_out, launch, ...), the position of a notify, the
//             last operation a `done` reports
//   dup       the message sent twice (an unexpected repeat)
//   short     the message sent announced (`follows`, as one over the control receive's
//             capacity), the announcement claiming capacity + 1 bytes: fewer follow
//   older     the header claims the protocol before this one (as from a process of that
//             protocol: a worker of protocol 7 answers a protocol-8 greeting with a
//             protocol_error, which `hello.1:pad@0` and `protocol_error.1:older` reproduce)
// and, whole:
//   late      the message sent late_by (2 s) later, the sending thread held that long: an
//             answer that comes after its peers' on any machine short of a stalled one
//
// A second hook, PLEXUS_MPI_TEST_RECEIVE_BYTES="BYTES@RANK": the process of that rank posts
// its control receive of BYTES instead of control_capacity, so that a peer's message over
// BYTES (unannounced: as from a sender of another protocol) fails that receive.
//
// Thread-safety: one thread at a time (the engine's). Ownership: a value.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plexus::mpi {

// How long `late` holds a message.
inline constexpr std::chrono::milliseconds late_by{2000};

class MessageDamage {
 public:
  // The items of `spec` (the variable's value; empty: none) that apply to `rank`. An item
  // that cannot be read is an error (plexus::error(invalid_argument)) naming it.
  MessageDamage(const std::string& spec, int rank);

  bool active() const { return !items_.empty(); }
  // Counts `message` (a finished control message, never a heartbeat) and damages it when an
  // item names it; returns a second copy to send after it for `dup`.
  std::optional<std::vector<std::byte>> apply(std::vector<std::byte>& message, int destination);
  // True once after apply() damaged a message by `short`: it must go announced, overstated.
  bool take_short() { return std::exchange(short_, false); }

 private:
  struct Item {
    std::uint32_t type = 0;  // 0: any type
    int destination = -1;    // -1: any rank
    std::uint64_t at = 0;
    std::string mode;
  };
  std::vector<Item> items_;
  // Messages sent by (type, destination); type 0: of any type, destination -1: to any rank.
  std::map<std::pair<std::uint32_t, int>, std::uint64_t> sent_;
  bool short_ = false;
};

// The size of the control receive that the process of `rank` posts: control_capacity, or
// what PLEXUS_MPI_TEST_RECEIVE_BYTES (`hook`; null or empty: unset) says for that rank. A
// value that cannot be read is an error (plexus::error(invalid_argument)) naming it.
std::size_t control_receive_bytes(const char* hook, int rank);

}  // namespace plexus::mpi
