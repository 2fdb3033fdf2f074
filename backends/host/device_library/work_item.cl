// Work-item functions, barriers and fences of the host device library (OpenCL 1.2-3.0).
#include "work_item_state.h"

#define PLEXUS_DEF __attribute__((overloadable))

PLEXUS_DEF uint get_work_dim(void) { return (uint)__plexus_wi()->work_dim; }
PLEXUS_DEF size_t get_global_size(uint d) { return d < 3 ? __plexus_wi()->global_size[d] : 1; }
PLEXUS_DEF size_t get_local_size(uint d) { return d < 3 ? __plexus_wi()->local_size[d] : 1; }
PLEXUS_DEF size_t get_enqueued_local_size(uint d) { return get_local_size(d); }
PLEXUS_DEF size_t get_num_groups(uint d) { return d < 3 ? __plexus_wi()->num_groups[d] : 1; }
PLEXUS_DEF size_t get_global_offset(uint d) { return d < 3 ? __plexus_wi()->global_offset[d] : 0; }
PLEXUS_DEF size_t get_group_id(uint d) { return d < 3 ? __plexus_wi()->group_id[d] : 0; }
PLEXUS_DEF size_t get_local_id(uint d) { return d < 3 ? __plexus_wi()->local_id[d] : 0; }

PLEXUS_DEF size_t get_global_id(uint d) {
  if (d >= 3) return 0;
  plexus_work_item_state* s = __plexus_wi();
  return s->group_id[d] * s->local_size[d] + s->local_id[d] + s->global_offset[d];
}

PLEXUS_DEF size_t get_global_linear_id(void) {
  plexus_work_item_state* s = __plexus_wi();
  size_t x = get_global_id(0) - s->global_offset[0], y = get_global_id(1) - s->global_offset[1],
         z = get_global_id(2) - s->global_offset[2];
  return (z * s->global_size[1] + y) * s->global_size[0] + x;
}

PLEXUS_DEF size_t get_local_linear_id(void) {
  plexus_work_item_state* s = __plexus_wi();
  return (s->local_id[2] * s->local_size[1] + s->local_id[1]) * s->local_size[0] + s->local_id[0];
}

// A work-group's work-items run on one thread (as fibers when the kernel has barriers), so
// a fence only has to stop the compiler from moving memory accesses across it.
PLEXUS_DEF void mem_fence(cl_mem_fence_flags flags) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
PLEXUS_DEF void read_mem_fence(cl_mem_fence_flags flags) { mem_fence(flags); }
PLEXUS_DEF void write_mem_fence(cl_mem_fence_flags flags) { mem_fence(flags); }

PLEXUS_DEF void barrier(cl_mem_fence_flags flags) {
  mem_fence(flags);
  __plexus_barrier(__plexus_wi());
  mem_fence(flags);
}

// OpenCL 2.0's work_group_barrier, named as clang mangles it (memory_scope is an enum).
void plexus_work_group_barrier(cl_mem_fence_flags flags)
    __asm__("_Z18work_group_barrierj");
void plexus_work_group_barrier(cl_mem_fence_flags flags) { barrier(flags); }
void plexus_work_group_barrier_scope(cl_mem_fence_flags flags, int scope)
    __asm__("_Z18work_group_barrierj12memory_scope");
void plexus_work_group_barrier_scope(cl_mem_fence_flags flags, int scope) { barrier(flags); }
