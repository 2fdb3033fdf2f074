// How a transfer is cut into messages: chunks of at most `chunk_bytes` (EngineOptions), in
// order, one empty chunk for an empty transfer; a small transfer (at most
// piecewise_transfer_bytes) in pieces of `piece_bytes` when that is set: each piece then fits
// the transport's eager limit and leaves at once, where one larger message would wait for the
// receiver's read and its acknowledgement (Open MPI's shared memory: 4 KiB + header, 3.9 us
// against 1.1 us as two pieces on this 2-core VM, docs/benchmarks.md). The sender's and the
// receiver's cuts must be the same (MPI matches the messages of one tag in order), so every
// side cuts here.
// Thread-safety: pure functions.
#pragma once

#include <algorithm>
#include <cstddef>

namespace plexus::mpi {

// The largest transfer sent in pieces. Raw MPI gains up to 256 KiB here when the receive is
// posted first, but pieces that arrive before it is (a worker posts its receive when the
// copy's turn comes) are copied twice more by MPI: at 64 KiB copies in pieces measured no
// better than one message, at 4 KiB twice as fast (docs/benchmarks.md).
inline constexpr std::size_t piecewise_transfer_bytes = 16 << 10;

// The smallest piece size a greeting may set (at most 32 pieces to a transfer).
inline constexpr std::size_t min_piece_bytes = 512;

// The size of the messages a transfer of `bytes` is cut into.
inline std::size_t transfer_cut(std::size_t bytes, std::size_t chunk_bytes, std::size_t piece_bytes) {
  return piece_bytes > 0 && bytes <= piecewise_transfer_bytes ? piece_bytes : chunk_bytes;
}

// Calls visit(offset, bytes) for each chunk of at most `chunk_bytes`; stops early when visit
// returns false.
template <class Visit>
void for_each_chunk(std::size_t bytes, std::size_t chunk_bytes, Visit&& visit) {
  chunk_bytes = std::max<std::size_t>(chunk_bytes, 1);
  std::size_t at = 0;
  do {
    const std::size_t chunk = std::min(chunk_bytes, bytes - at);
    if (!visit(at, chunk)) return;
    at += chunk;
  } while (at < bytes);
}

}  // namespace plexus::mpi
