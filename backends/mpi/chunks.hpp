// How a transfer is cut into messages: chunks of at most `chunk_bytes` (EngineOptions), in
// order, one empty chunk for an empty transfer. The sender's and the receiver's cuts must be
// the same (MPI matches the chunks of one tag in order), so every side cuts here.
// Thread-safety: a pure function.
#pragma once

#include <algorithm>
#include <cstddef>

namespace plexus::mpi {

// Calls visit(offset, bytes) for each chunk; stops early when visit returns false.
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
