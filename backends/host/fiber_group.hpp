// FiberGroup: runs the work-items of one work-group of a kernel that has barriers, each
// work-item as a fiber (Boost.Context) on the calling thread. barrier() in the kernel
// (the device library's __plexus_barrier) switches back to the group's scheduler, which
// resumes the next work-item; when every work-item has arrived, all continue. A sub-group
// barrier (__plexus_sub_group_barrier: sub_group_barrier and the sub-group collectives)
// waits for the work-items of the caller's sub-group only. The group's work-items share a
// scratch block for the collective functions (plexus_work_item_state::collective).
//
// Ownership: one FiberGroup per thread and launch (it keeps the fiber stacks between
// groups). Thread-safety: none; a FiberGroup is used by one thread at a time.
// Errors: work-items that do not all reach the same number of barriers (a barrier in
// divergent control flow, undefined in OpenCL), or the work-items of a sub-group that do
// not all reach its sub-group barrier, end the group with plexus::error(device).
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "device_library/work_item_state.h"

namespace plexus::host {

// A kernel's per-work-item entry: (argument slots, that work-item's state).
using ItemEntry = void (*)(void**, plexus_work_item_state*);

class FiberGroup {
 public:
  // Each fiber gets a stack of at least `private_bytes` (the kernel's private variables)
  // plus room for spills and the runtime's calls.
  explicit FiberGroup(std::size_t private_bytes);
  ~FiberGroup();
  FiberGroup(const FiberGroup&) = delete;
  FiberGroup& operator=(const FiberGroup&) = delete;

  // The stack size for a kernel whose work-items keep `private_bytes` on the stack.
  static std::size_t stack_bytes_for(std::size_t private_bytes);

  // Runs every work-item of the group `group` describes (its local_id is ignored).
  void run(ItemEntry entry, void** arguments, const plexus_work_item_state& group);

  // The addresses the JIT binds to __plexus_barrier and __plexus_sub_group_barrier.
  static void* barrier_function();
  static void* sub_group_barrier_function();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace plexus::host
