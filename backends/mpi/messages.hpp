// The mpi backend's protocol between rank 0 (the application) and its workers (`plexus
// worker`): message types, tags, the version handshake and the codecs of the plain data
// that travels (device descriptions, kernel descriptions, copy layouts, ranges, errors).
//
// Control messages travel on control_tag of the session's communicator; bulk data (copy
// payloads, in chunks) on a tag of its own per transfer, data_tag(transfer id), so that
// transfers between the same pair of ranks never mix.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "plexus/device_info.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_info.hpp"
#include "plexus/nd_range.hpp"
#include "wire.hpp"

namespace plexus::mpi {

// Bumped whenever a message changes; both sides must speak the same one.
// 2: copy_in may carry its data inline; the checksum reads words, not bytes; a queue's
//    operations carry their number, notify its position, and workers send `done`.
// 3: KernelInfo::cancellable.
// 4: copy_within and fill_within (buffer commands run on the worker's device).
// 5: control messages over control_capacity travel on large_control_tag, announced by
//    `follows` (the receiver's control receive is posted in advance, of that capacity).
// 6: native_call (registered native functions run on the worker); `welcome` gives each
//    device's native backend.
// 7: load_module's reply gives each kernel's max_work_group_size on the worker's device.
// 8: `hello` gives the piece size (chunks.hpp: small transfers in eager-sized pieces), and a
//    worker refuses a greeting of another protocol before reading past its versions;
//    copy_in carries its data inline only when the whole message fits one piece.
// 9: rank 0 tells the other workers of a worker that failed (peer_failed): they fail their
//    transfers with it (a pull that awaits its data, a push to it) instead of awaiting them.
// 10: a launch's range in compact form (each array's entries up to its last that is not
//    NdRange's default, after a count byte), and its operation number last (rank 0 resolves
//    each argument as it writes it).
inline constexpr std::uint32_t protocol_version = 10;

inline constexpr int control_tag = 1;
inline constexpr int large_control_tag = 2;
// The largest control message on control_tag (an inline copy and its header fit).
inline constexpr std::size_t control_capacity = 32 << 10;
// Copies of at most this many bytes travel inside their control message (one message, no
// transfer of their own to match and wait for), unless the session cuts small transfers into
// pieces (EngineOptions::piece_bytes): then only a copy whose whole message fits one piece
// does (a larger one would wait for the receiver's read and acknowledgement, where its
// pieces leave at once).
inline constexpr std::size_t eager_copy_bytes = 16 << 10;
// The largest fill_within pattern a message carries (larger: the caller's own fallback).
inline constexpr std::size_t max_fill_pattern_bytes = 4096;
// Limits of a native_call: its names (task, function, backend, argument type) and the bytes
// of its arguments.
inline constexpr std::size_t max_native_name_bytes = 4096;
inline constexpr std::size_t max_native_arguments_bytes = 1 << 20;
inline constexpr int first_data_tag = 16;
// A transfer's tag: distinct for 2^30 transfers in flight (MPI guarantees tags to 32767 only;
// Open MPI gives 2^31-1: session start checks MPI_TAG_UB).
int data_tag(std::uint64_t transfer, int tag_upper_bound);

enum class MessageType : std::uint32_t {
  hello = 1,       // rank 0 -> worker: versions, chunk size, timeout, piece size
  welcome,         // worker -> rank 0: versions, host name, devices
  refuse,          // worker -> rank 0: versions and why it refuses
  heartbeat,       // both ways, periodically: "still here"
  shutdown,        // rank 0 -> worker
  reply,           // worker -> rank 0: the answer to a request (header id = request id)
  allocate,        // device, bytes -> reply: the worker's address
  deallocate,      // device, address
  create_queue,    // device, queue id
  destroy_queue,   // queue id
  // A queue's operations carry their number on it (1, 2, ...: `seq`), checked in order.
  copy_in,         // queue, seq, address, layout, transfer, inline? [data]: data inline (small
                   // copies, at most eager_copy_bytes) or following from rank 0 on the tag
  copy_out,        // queue, seq, address, layout, transfer: data goes to rank 0 once copied
  copy_pull,       // queue, seq, address, layout, source rank, transfer: data from another worker
  copy_push,       // device, address, layout, destination rank, transfer: data to another worker
  copy_local,      // queue, seq, address, source device, source address, layout: within the worker
  load_module,     // device, module id, content hash, format, kernels, [binary] -> reply:
                   // each kernel's max_work_group_size
  release_module,  // module id
  launch,          // queue, seq, module id, kernel index, range, arguments
  notify,          // queue, position (the last seq before it) -> reply once every operation
                   // enqueued before is done, with their failure (reported once)
  counters,        // -> reply: the worker's transfer counters
  protocol_error,  // either way: a message the receiver could not accept, and why
  done,            // worker -> rank 0, when a queue falls idle: queue, last seq finished,
                   // failed? (a failure waits for a notify to report it)
  copy_within,     // queue, seq, address, offset, source address, source offset, bytes: on
                   // the device (two allocations of it, each given by its start)
  fill_within,     // queue, seq, address, offset, bytes, pattern: on the device
  follows,         // either way: size; the next message of this sender, of that size (over
                   // control_capacity), comes on large_control_tag (engine.cpp)
  native_call,     // queue, seq, task, function, backend, argument type, [arguments],
                   // accessors, their addresses (0: none): a registered native function
  peer_failed,     // rank 0 -> worker: rank, its name, why: another worker that failed
};

std::string_view to_string(MessageType type);
// "message 'launch' (7) from rank 2": for Reader's errors.
std::string describe(std::uint32_t type, const std::string& from);

// What a side claims in the handshake. The Plexus version is the library's own, unless the
// test hook PLEXUS_MPI_TEST_VERSION overrides it (the mismatch test).
struct Versions {
  std::uint32_t protocol = protocol_version;
  std::string plexus;       // "0.1.0"
  std::string fingerprint;  // compiler, C++ ABI, sanitizer (PLEXUS_BUILD_FINGERPRINT)
};
Versions this_side_versions();
void write(Writer& out, const Versions& versions);
Versions read_versions(Reader& in);
// Empty when both sides may work together, else why not, naming both versions.
std::string version_mismatch(const Versions& rank0, const Versions& worker);
// Why rank 0 gives up on a worker whose answer to its greeting is a message of `type`, not
// a welcome or a refusal (`said`: a protocol error's reason, else empty), whose header
// says mpi protocol `protocol`: of another protocol, a version mismatch naming both
// protocols and rank 0's Plexus version (a worker of protocol 7 or earlier answers a
// protocol-8 greeting with a protocol error, not a refusal that names both versions).
std::string unexpected_greeting_answer(std::uint32_t type, std::uint32_t protocol,
                                       const std::string& said);

void write(Writer& out, const DeviceInfo& info);
DeviceInfo read_device_info(Reader& in);
void write(Writer& out, const KernelInfo& info);
KernelInfo read_kernel_info(Reader& in);
void write(Writer& out, const CopyLayout& layout);
CopyLayout read_layout(Reader& in);
void write(Writer& out, const NdRange& range);
NdRange read_range(Reader& in);

// A failure as it travels: its category and message.
void write_failure(Writer& out, std::exception_ptr failure);
error read_failure(Reader& in);

}  // namespace plexus::mpi
