// Copies of contiguous regions between another rank and a worker device whose memory is not
// host memory (a GPU), staged through a pooled host buffer (StagingPool: page-locked where the
// device pins) in the chunks the engine cuts the transfer into (Engine::cut: chunk_bytes, or
// eager-sized pieces for a small transfer), so that each chunk's device copy
// overlaps the transfer of the next instead of following the whole transfer.
//
// StagedReceive: made inside the engine's work when the copy's message arrives; it posts the
// chunks' receives at once (the sender may send at once, before the queue reaches the copy).
// copy_in() runs in queue order, on the queue's thread. staged_send() runs in queue order.
// Ownership: the staging is kept by the transfers until they end, so either may return early
// (after a failure) while data is still moving.
#pragma once

#include <cstddef>
#include <exception>
#include <memory>
#include <vector>

#include "../engine.hpp"
#include "engine_await.hpp"
#include "plexus/device_queue.hpp"
#include "../staging_pool.hpp"

namespace plexus::mpi {

class StagedReceive {
 public:
  // Inside the engine's work: posts the receives of `bytes` from `source` on `tag`.
  StagedReceive(Engine& engine, StagingPool& pool, int source, int tag, std::size_t bytes);

  // In queue order: copies each chunk into `allocation`'s `layout` (contiguous) as it
  // arrives, then waits for the device. With `skip` (an earlier operation failed) the data
  // is awaited, unused. Throws the transfer's failure (the peer's, naming it) or the
  // device copy's.
  void copy_in(Engine& engine, DeviceQueue& local, void* allocation, const CopyLayout& layout,
               bool skip);

 private:
  std::shared_ptr<std::byte[]> staging_;
  std::size_t chunk_bytes_;
  std::vector<std::shared_ptr<Signal>> chunks_;
};

// In queue order, once the operations before it are done (the caller drained the queue):
// sends `layout` (contiguous) of `allocation` to `destination` on `tag` in chunks, each
// copied to the staging, waited for and sent while the next is copied. After `failure`, or
// from the chunk whose device copy fails, zeros go instead (the receiver still completes);
// returns the first failure.
std::exception_ptr staged_send(Engine& engine, StagingPool& pool, DeviceQueue& local,
                               const void* allocation, const CopyLayout& layout,
                               int destination, int tag, std::exception_ptr failure);

}  // namespace plexus::mpi
