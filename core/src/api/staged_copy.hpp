// Device -> device copies staged through host memory (internal to the core, for CopyRunner):
// the split of a copy into pieces that fit a staging chunk, the double-buffered copy, and
// the runtime's counters of direct and staged copies.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "plexus/device_queue.hpp"
#include "plexus/memory_model.hpp"
#include "staging_pool.hpp"

namespace plexus::detail {

// Pieces of `layout`, in order, that together cover exactly its bytes, each spanning at most
// `chunk` bytes from its offset (copy_extent(piece) - piece.offset <= chunk): whole slices
// while they fit, else groups of rows of one slice, else parts of one row. Pure function.
std::vector<CopyLayout> split_for_staging(const CopyLayout& layout, std::size_t chunk);

// Copies the region `layout` of `source` (an allocation read by `source_queue`) to the same
// region of `target` (written by `target_queue`) through the lease's two chunks: the read of
// piece i+1 into one chunk overlaps the write of piece i from the other. Returns once both
// queues are done with the copy (and with what was enqueued on them before); a failure of
// either queue is rethrown after both stopped using the chunks.
void copy_staged(DeviceQueue& source_queue, const void* source, DeviceQueue& target_queue,
                 void* target, const CopyLayout& layout, const StagingPool::Lease& lease);

// Counts how device -> device copies ran (Runtime::memory_report's device_copies).
// Thread-safety: every member is safe from any thread.
class DeviceCopyCounters {
 public:
  void count_direct(std::size_t bytes);
  void count_staged(std::size_t bytes, bool pinned);
  DeviceCopyStats snapshot() const;

 private:
  std::atomic<std::uint64_t> direct_copies_{0}, direct_bytes_{0}, staged_copies_{0},
      staged_bytes_{0}, pinned_staged_bytes_{0};
};

}  // namespace plexus::detail
