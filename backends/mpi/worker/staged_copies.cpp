#include "staged_copies.hpp"

#include <algorithm>
#include <cstring>

#include "../chunks.hpp"
#include "engine_await.hpp"

namespace plexus::mpi {

namespace {
// The region's address in the staging's terms: staging + offset is the region's first byte.
const void* staging_base(const std::byte* staging, const CopyLayout& layout) {
  return staging - layout.offset;
}
}  // namespace

StagedReceive::StagedReceive(Engine& engine, StagingPool& pool, int source, int tag,
                             std::size_t bytes)
    : staging_(pool.acquire(bytes)),
      chunk_bytes_(std::max<std::size_t>(engine.cut(bytes), 1)) {
  // One receive per chunk (one message each), posted in order on one tag: MPI matches them in
  // order with the sender's chunks (Engine::send_data cuts the transfer alike).
  for_each_chunk(bytes, chunk_bytes_, [&](std::size_t at, std::size_t chunk) {
    auto arrived = std::make_shared<Signal>();
    chunks_.push_back(arrived);
    engine.recv_data(source, tag, staging_.get() + at, chunk,
                     [keep = staging_, done = fulfil(arrived)](std::exception_ptr failure) {
                       done(failure);
                     }, chunk);
    return true;
  });
}

void StagedReceive::copy_in(Engine& engine, DeviceQueue& local, void* allocation,
                            const CopyLayout& layout, bool skip) {
  bool copied = false;
  for (std::size_t i = 0; i < chunks_.size(); ++i) {
    await(engine, *chunks_[i]);
    if (skip || layout.bytes() == 0) continue;
    const std::size_t at = i * chunk_bytes_;
    const std::size_t chunk = std::min(chunk_bytes_, layout.bytes() - at);
    // Asynchronous where the staging is page-locked: the device copies this chunk while
    // the next one arrives.
    local.copy_to_device(allocation, staging_base(staging_.get(), layout),
                         CopyLayout::contiguous(layout.offset + at, chunk));
    copied = true;
  }
  if (copied) local.wait();  // the staging goes back to the pool after this
}

std::exception_ptr staged_send(Engine& engine, StagingPool& pool, DeviceQueue& local,
                               const void* allocation, const CopyLayout& layout,
                               int destination, int tag, std::exception_ptr failure) {
  const std::size_t bytes = layout.bytes();
  std::shared_ptr<std::byte[]> staging = pool.acquire(bytes);
  for_each_chunk(bytes, engine.cut(bytes), [&](std::size_t at, std::size_t chunk) {
    std::byte* from = staging.get() + at;
    if (!failure && chunk > 0) {
      try {
        local.copy_to_host(const_cast<void*>(staging_base(staging.get(), layout)), allocation,
                           CopyLayout::contiguous(layout.offset + at, chunk));
        local.wait();
      } catch (...) {
        failure = std::current_exception();
      }
    }
    if (failure) std::memset(from, 0, chunk);
    // The send keeps the staging; this thread goes on with the next chunk's device copy.
    engine.run_or_post([&engine, staging, from, chunk, destination, tag] {
      engine.send_data(destination, tag, from, chunk, [staging](std::exception_ptr) {}, chunk);
    });
    return true;
  });
  return failure;
}

}  // namespace plexus::mpi
