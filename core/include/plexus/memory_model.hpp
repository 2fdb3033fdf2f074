// MemoryModel: buffer state, after AdaptiveCpp's buffer model. For each buffer and each
// location (the host or a device): whether an allocation exists there, which parts of the
// buffer are valid there, which earlier accesses a new access conflicts with, and which
// copies must run before it. Implementations differ in the granularity they track
// (memory/whole: the whole buffer; memory/paged: a 3D page grid; memory/exact: exact boxes).
//
// How a scheduler uses it:
//   id = create_buffer(desc)                  once per buffer
//   plan = record(access, task)               for each access of each task, in submission
//                                             order; then, before `task` runs:
//     wait for plan.dependencies; if plan.allocate, allocate buffer_bytes(desc) at
//     access.location (once, never reallocated); run plan.copies (any order, disjoint)
//   preview(access)                           the same plan without recording (costs, HEFT)
//   release_buffer(id)                        returns the locations whose allocations to free
//   lose_location(l, why)                     a device is gone for good (Device::lost())
//   stats(), reset_stats()                    counters per run
// The memory model plans; it never allocates, copies or waits itself.
//
// Semantics every implementation follows (tests/memory checks them):
// - Locations: `host_location` (0) is host memory; devices are 1..max_locations-1, numbered
//   by the scheduler. A location >= max_locations is invalid_argument.
// - Conflicts: two accesses of one buffer conflict when at least one writes and their
//   footprints overlap (footprint: the access range rounded out to the policy's granule).
//   A task never depends on itself; tasks already done are never returned.
// - Copies: only for data that someone wrote (or the host data the buffer was created
//   with): an uninitialized buffer transfers nothing. discard_write never copies the range
//   it overwrites (a page-based policy copies the rest of a page it overwrites only in
//   part, which would be lost otherwise). Where several locations hold valid data, the lowest location is the
//   source (the host first) and a copy needing several sources is split per source.
//   Boxes are coalesced (adjacent boxes merged) so that a plan has few copies.
// - A write (any mode but read) leaves its footprint valid only at its location.
// - What the model assumes of the scheduler: a task's event completes only after its
//   plan's copies ran and after its dependencies completed (a done task stands for all it
//   depended on, so done tasks are forgotten).
// - Allocations: lazy, the full buffer, reported once per (buffer, location). A buffer
//   created with host data starts allocated and valid on the host.
// - A lost location (lose_location): what was valid only there, and what copies from there
//   were to bring elsewhere without having completed, is lost. record() of an access that
//   uses lost elements (every mode but discard_write, overlapping them) throws
//   plexus::error(device) naming the buffer, the elements and the `why` given (the node),
//   every time: never a stale copy. A discard_write over lost elements makes them valid
//   again. Nothing is valid at a lost location any more; it is never a copy's source.
//   preview() does not throw for lost data.
// - Errors: an unknown buffer, a zero element size or extent, a page extent with a zero,
//   an access range that is empty or outside the buffer, a location >= max_locations:
//   plexus::error(invalid_argument) naming the buffer and the bad value.
//
// Thread-safety: every member may be called from any thread. Calls on one buffer are
// serialised (record() is atomic: plan and state update together); calls on different
// buffers run concurrently. Ownership: the memory model owns its tracking state; it shares
// the TaskEvents it is given and keeps one only while a later access may still conflict
// with it (events found done are dropped, possibly lazily).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plexus/access_range.hpp"
#include "plexus/component.hpp"
#include "plexus/component_kind.hpp"
#include "plexus/task_event.hpp"

namespace plexus {

using BufferId = std::uint64_t;
using LocationId = std::uint32_t;  // host_location or a device as numbered by the scheduler

inline constexpr LocationId host_location = 0;
inline constexpr LocationId max_locations = 64;

struct BufferDesc {
  std::size_t element_size = 1;  // bytes
  Extent3 extent{1, 1, 1};       // elements; 1D and 2D buffers have trailing extents of 1
  // Page extent in elements per dimension for page-based policies (clipped to the
  // extent); {0, 0, 0}: the policy's default. Ignored by policies without pages.
  Extent3 page_extent{0, 0, 0};
  bool host_data_valid = false;  // true: created from host data, valid on the host
};

// Bytes of the one allocation a buffer has at each location.
constexpr std::size_t buffer_bytes(const BufferDesc& desc) {
  return desc.element_size * desc.extent[0] * desc.extent[1] * desc.extent[2];
}

struct BufferAccess {
  BufferId buffer = 0;
  AccessRange range;  // elements, inside the buffer's extent, not empty
  AccessMode mode = AccessMode::read;
  LocationId location = host_location;
};

// One copy between two allocations of a buffer. Elements are laid out row-major with the
// last dimension fastest (offset = (o0 * e1 + o1) * e2 + o2), the same at every location.
struct BufferCopy {
  LocationId from = 0;
  LocationId to = 0;
  AccessRange box;        // elements
  std::size_t bytes = 0;  // volume of `box` times the element size
  // Byte offset of the box's first element. When `contiguous`, the copy is the single byte
  // range [byte_offset, byte_offset + bytes) in both allocations; otherwise a rectangular
  // (3D) copy of `box` with the buffer's row and slice pitches.
  std::size_t byte_offset = 0;
  bool contiguous = true;
};

struct AccessPlan {
  // Earlier tasks this access must wait for: conflicting accesses, and tasks whose planned
  // copies bring in data this access (or one of its copies) reads. No duplicates.
  std::vector<std::shared_ptr<TaskEvent>> dependencies;
  // No allocation exists at the access's location yet: allocate buffer_bytes() there first.
  bool allocate = false;
  // To run after the dependencies and before the task. Disjoint; any order.
  std::vector<BufferCopy> copies;

  std::size_t copy_bytes() const {
    std::size_t total = 0;
    for (const auto& copy : copies) total += copy.bytes;
    return total;
  }
};

struct TransferCounter {
  LocationId from = 0;
  LocationId to = 0;
  std::uint64_t copies = 0;
  std::uint64_t bytes = 0;
};

// How the runtime ran the device -> device copies of the plans: directly between the two
// devices (DeviceQueue::copy_from_device) or staged through host memory, and how much of
// the staging went through page-locked memory. Filled by Runtime::memory_report(); memory
// models leave it zero.
struct DeviceCopyStats {
  std::uint64_t direct_copies = 0;
  std::uint64_t direct_bytes = 0;
  std::uint64_t staged_copies = 0;
  std::uint64_t staged_bytes = 0;
  std::uint64_t pinned_staged_bytes = 0;  // of staged_bytes
};

// The USM allocations of the runtime (plexus/usm.hpp): made since it started, and live
// now. Filled by Runtime::memory_report(); memory models leave it zero.
struct UsmStats {
  std::uint64_t allocations = 0;  // malloc_device/host/shared calls that succeeded
  std::uint64_t allocated_bytes = 0;
  std::uint64_t live_allocations = 0;  // not freed yet
  std::uint64_t live_bytes = 0;
};

// Counters of the plans record() returned since creation or the last reset_stats().
struct MemoryStats {
  std::vector<TransferCounter> transfers;  // one per direction with copies, by (from, to)
  DeviceCopyStats device_copies;           // the runtime's, see DeviceCopyStats
  UsmStats usm;                            // the runtime's, see UsmStats
  std::uint64_t accesses = 0;              // record() calls
  std::uint64_t dependencies = 0;          // dependencies returned
  std::uint64_t allocations = 0;           // allocations requested
  std::uint64_t allocated_bytes = 0;

  TransferCounter between(LocationId from, LocationId to) const {
    for (const auto& counter : transfers) {
      if (counter.from == from && counter.to == to) return counter;
    }
    return {from, to, 0, 0};
  }
  std::uint64_t copies() const {
    std::uint64_t total = 0;
    for (const auto& counter : transfers) total += counter.copies;
    return total;
  }
  std::uint64_t bytes() const {
    std::uint64_t total = 0;
    for (const auto& counter : transfers) total += counter.bytes;
    return total;
  }
};

class PLEXUS_API MemoryModel : public Component {
 public:
  static constexpr ComponentKind kind = ComponentKind::memory;
  ~MemoryModel() override;

  virtual BufferId create_buffer(const BufferDesc& desc) = 0;
  // Forgets the buffer; returns the locations holding an allocation of it (to free).
  // Accesses recorded before must be done or no longer need the buffer.
  virtual std::vector<LocationId> release_buffer(BufferId buffer) = 0;

  // What `access` would need now, without recording it.
  virtual AccessPlan preview(const BufferAccess& access) const = 0;
  // Records `access` by `task` (submission order) and returns what must happen first:
  // the state moves on as if the plan's allocation and copies ran, then the access.
  virtual AccessPlan record(const BufferAccess& access, std::shared_ptr<TaskEvent> task) = 0;

  // `location` (a device, never host_location) is gone for good; `why` names it, e.g.
  // "mpi: node 'vm' rank 1 failed: ...". Idempotent.
  virtual void lose_location(LocationId location, const std::string& why) = 0;

  virtual MemoryStats stats() const = 0;
  virtual void reset_stats() = 0;
};

}  // namespace plexus
