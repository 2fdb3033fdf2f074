#include "staged_copy.hpp"

#include <algorithm>
#include <cstdint>

#include "plexus/copy_validation.hpp"

namespace plexus::detail {
namespace {

std::size_t span_of(const CopyLayout& layout) { return copy_extent(layout) - layout.offset; }

// Appends `count` consecutive units of `unit` bytes starting at `offset`, `per_piece` at a
// time, each piece made by `make(offset, units)`.
template <class Make>
void append_runs(std::vector<CopyLayout>& pieces, std::size_t offset, std::size_t count,
                 std::size_t pitch, std::size_t per_piece, Make make) {
  for (std::size_t done = 0; done < count; done += per_piece)
    pieces.push_back(make(offset + done * pitch, std::min(per_piece, count - done)));
}

void split_into(std::vector<CopyLayout>& pieces, const CopyLayout& layout, std::size_t chunk) {
  if (span_of(layout) <= chunk) {
    pieces.push_back(layout);
    return;
  }
  if (layout.slices > 1) {
    CopyLayout slice = layout;
    slice.slices = 1;
    const std::size_t slice_span = span_of(slice);
    if (slice_span > chunk) {
      for (std::size_t s = 0; s < layout.slices; ++s) {
        slice.offset = layout.offset + s * layout.slice_pitch;
        split_into(pieces, slice, chunk);
      }
      return;
    }
    const std::size_t per_piece = (chunk - slice_span) / layout.slice_pitch + 1;
    append_runs(pieces, layout.offset, layout.slices, layout.slice_pitch, per_piece,
                [&](std::size_t offset, std::size_t slices) {
                  CopyLayout piece = layout;
                  piece.offset = offset;
                  piece.slices = slices;
                  return piece;
                });
    return;
  }
  if (layout.rows > 1 && layout.row_bytes <= chunk) {
    const std::size_t per_piece = (chunk - layout.row_bytes) / layout.row_pitch + 1;
    append_runs(pieces, layout.offset, layout.rows, layout.row_pitch, per_piece,
                [&](std::size_t offset, std::size_t rows) {
                  CopyLayout piece = layout;
                  piece.offset = offset;
                  piece.rows = rows;
                  piece.slice_pitch = rows * layout.row_pitch;
                  return piece;
                });
    return;
  }
  for (std::size_t row = 0; row < layout.rows; ++row) {
    const std::size_t start = layout.offset + row * layout.row_pitch;
    const std::size_t parts = (layout.row_bytes + chunk - 1) / chunk;
    append_runs(pieces, start, parts, chunk, 1, [&](std::size_t offset, std::size_t) {
      return CopyLayout::contiguous(offset, std::min(chunk, start + layout.row_bytes - offset));
    });
  }
}

// The host base address that places `piece` at the start of `chunk` (the queues add the
// piece's offset to it).
void* base_for(void* chunk, const CopyLayout& piece) {
  return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(chunk) - piece.offset);
}

// Waits for `queue`, forgetting its failure: for unwinding after another failure, so that
// no copy still uses a staging chunk when the chunks go back to the pool.
void settle(DeviceQueue& queue) noexcept {
  try {
    queue.wait();
  } catch (...) {
  }
}

}  // namespace

std::vector<CopyLayout> split_for_staging(const CopyLayout& layout, std::size_t chunk) {
  std::vector<CopyLayout> pieces;
  if (layout.bytes() == 0 || chunk == 0) return pieces;
  split_into(pieces, layout, chunk);
  return pieces;
}

void copy_staged(DeviceQueue& source_queue, const void* source, DeviceQueue& target_queue,
                 void* target, const CopyLayout& layout, const StagingPool::Lease& lease) {
  const std::vector<CopyLayout> pieces = split_for_staging(layout, StagingPool::chunk_bytes);
  if (pieces.empty()) return;
  source_queue.copy_to_host(base_for(lease.chunk(0), pieces[0]), source, pieces[0]);
  source_queue.wait();
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const bool next = i + 1 < pieces.size();
    try {
      // The read of the next piece goes first, so that it runs while this piece is written
      // (queues start work when it is enqueued, or at the latest when waited for). Plain
      // waits, no on_complete: waiting for each write through NVIDIA OpenCL's completion
      // callback ran at 0.5 GB/s on an H100 (docs/benchmarks.md).
      if (next) {
        const CopyLayout& ahead = pieces[i + 1];
        source_queue.copy_to_host(base_for(lease.chunk((i + 1) % 2), ahead), source, ahead);
      }
      target_queue.copy_to_device(target, base_for(lease.chunk(i % 2), pieces[i]), pieces[i]);
      target_queue.wait();
    } catch (...) {
      if (next) settle(source_queue);  // the chunk it reads into must outlive the read
      settle(target_queue);
      throw;
    }
    if (next) source_queue.wait();
  }
}

void DeviceCopyCounters::count_direct(std::size_t bytes) {
  direct_copies_.fetch_add(1, std::memory_order_relaxed);
  direct_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void DeviceCopyCounters::count_staged(std::size_t bytes, bool pinned) {
  staged_copies_.fetch_add(1, std::memory_order_relaxed);
  staged_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  if (pinned) pinned_staged_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

DeviceCopyStats DeviceCopyCounters::snapshot() const {
  return {
      direct_copies_.load(std::memory_order_relaxed), direct_bytes_.load(std::memory_order_relaxed),
      staged_copies_.load(std::memory_order_relaxed), staged_bytes_.load(std::memory_order_relaxed),
      pinned_staged_bytes_.load(std::memory_order_relaxed)};
}

}  // namespace plexus::detail
