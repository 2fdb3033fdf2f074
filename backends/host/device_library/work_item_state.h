// The work-item state the host backend hands its kernels: one layout for the OpenCL C
// device library (which reads it through __plexus_wi()) and the C++ backend (which fills
// it). Every field is 64 bits wide, so the layout is the same on both sides.
//
// Contract: __plexus_wi() is declared by the device library and never defined. When the
// host backend loads a module, it inlines every function into its per-kernel wrappers and
// replaces each call by the wrapper's state pointer, so JIT code reads the state from a
// register or the stack and uses no thread-local storage.
#ifndef PLEXUS_HOST_WORK_ITEM_STATE_H
#define PLEXUS_HOST_WORK_ITEM_STATE_H

#ifdef __OPENCL_C_VERSION__
typedef ulong plexus_u64;
#else
#include <cstdint>
typedef std::uint64_t plexus_u64;
#endif

typedef struct plexus_work_item_state {
  plexus_u64 work_dim;
  plexus_u64 global_size[3];
  plexus_u64 local_size[3];
  plexus_u64 num_groups[3];
  plexus_u64 global_offset[3];
  plexus_u64 group_id[3];
  plexus_u64 local_id[3];
  plexus_u64 local_base;  // address of this work-group's __local block
  plexus_u64 fiber;       // the host's barrier context (barrier kernels), else 0
  // Sub-groups: runs of sub_group_size consecutive local linear ids (the last may be
  // shorter); the host's vector width in 32-bit lanes, a power of two.
  plexus_u64 sub_group_size;
  // Barrier kernels: the work-group's scratch for collective functions, 2 * (work-group
  // size) + 2 slots of 8 bytes (each work-item's value, the work-group's result, one
  // result per sub-group), else 0.
  plexus_u64 collective;
} plexus_work_item_state;

#ifdef __OPENCL_C_VERSION__
// Private pointers (named: in OpenCL C 2.0 a plain pointer is generic), so that sources
// built as 1.2 and 2.0 declare the same functions.
typedef __private plexus_work_item_state* plexus_state_pointer;
plexus_state_pointer __plexus_wi(void);
// Yields the calling work-item's fiber until every work-item of its group has arrived.
void __plexus_barrier(plexus_state_pointer state);
// The same for the work-items of its sub-group.
void __plexus_sub_group_barrier(plexus_state_pointer state);
#endif

#endif
