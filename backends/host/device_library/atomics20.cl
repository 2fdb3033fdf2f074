// OpenCL 2.0 atomics (C11 style) of the host device library, built with -cl-std=CL2.0:
// atomic_fetch_{add,sub,or,xor,and,min,max}, atomic_load, atomic_store, atomic_exchange,
// atomic_compare_exchange_{strong,weak}, atomic_init (all with the _explicit forms) for
// atomic_int/uint/long/ulong (load/store/exchange also float/double), and
// atomic_work_item_fence. Every operation is sequentially consistent (at least as strong as
// any order asked for); scopes need nothing more on one CPU.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define PLEXUS_DEF __attribute__((overloadable))
#define PLEXUS_SC __ATOMIC_SEQ_CST

#define PLEXUS_FETCH(op, A, T)                                                                  \
  PLEXUS_DEF T atomic_fetch_##op(volatile A* p, T v) {                                          \
    return __c11_atomic_fetch_##op(p, v, PLEXUS_SC);                                            \
  }                                                                                             \
  PLEXUS_DEF T atomic_fetch_##op##_explicit(volatile A* p, T v, memory_order o) {               \
    return __c11_atomic_fetch_##op(p, v, PLEXUS_SC);                                            \
  }                                                                                             \
  PLEXUS_DEF T atomic_fetch_##op##_explicit(volatile A* p, T v, memory_order o, memory_scope s) { \
    return __c11_atomic_fetch_##op(p, v, PLEXUS_SC);                                            \
  }

#define PLEXUS_LOAD_STORE(A, T)                                                                  \
  PLEXUS_DEF void atomic_init(volatile A* p, T v) { __c11_atomic_init(p, v); }                   \
  PLEXUS_DEF T atomic_load(volatile A* p) { return __c11_atomic_load(p, PLEXUS_SC); }            \
  PLEXUS_DEF T atomic_load_explicit(volatile A* p, memory_order o) {                             \
    return __c11_atomic_load(p, PLEXUS_SC);                                                      \
  }                                                                                              \
  PLEXUS_DEF T atomic_load_explicit(volatile A* p, memory_order o, memory_scope s) {             \
    return __c11_atomic_load(p, PLEXUS_SC);                                                      \
  }                                                                                              \
  PLEXUS_DEF void atomic_store(volatile A* p, T v) { __c11_atomic_store(p, v, PLEXUS_SC); }      \
  PLEXUS_DEF void atomic_store_explicit(volatile A* p, T v, memory_order o) {                    \
    __c11_atomic_store(p, v, PLEXUS_SC);                                                         \
  }                                                                                              \
  PLEXUS_DEF void atomic_store_explicit(volatile A* p, T v, memory_order o, memory_scope s) {    \
    __c11_atomic_store(p, v, PLEXUS_SC);                                                         \
  }                                                                                              \
  PLEXUS_DEF T atomic_exchange(volatile A* p, T v) { return __c11_atomic_exchange(p, v, PLEXUS_SC); } \
  PLEXUS_DEF T atomic_exchange_explicit(volatile A* p, T v, memory_order o) {                    \
    return __c11_atomic_exchange(p, v, PLEXUS_SC);                                               \
  }                                                                                              \
  PLEXUS_DEF T atomic_exchange_explicit(volatile A* p, T v, memory_order o, memory_scope s) {    \
    return __c11_atomic_exchange(p, v, PLEXUS_SC);                                               \
  }

#define PLEXUS_COMPARE_EXCHANGE(kind, weak, A, T)                                                \
  PLEXUS_DEF bool atomic_compare_exchange_##kind(volatile A* p, T* expected, T desired) {        \
    return __c11_atomic_compare_exchange_##kind(p, expected, desired, PLEXUS_SC, PLEXUS_SC);     \
  }                                                                                              \
  PLEXUS_DEF bool atomic_compare_exchange_##kind##_explicit(volatile A* p, T* expected,          \
                                                            T desired, memory_order s,           \
                                                            memory_order f) {                    \
    return __c11_atomic_compare_exchange_##kind(p, expected, desired, PLEXUS_SC, PLEXUS_SC);     \
  }                                                                                              \
  PLEXUS_DEF bool atomic_compare_exchange_##kind##_explicit(volatile A* p, T* expected,          \
                                                            T desired, memory_order s,           \
                                                            memory_order f, memory_scope sc) {   \
    return __c11_atomic_compare_exchange_##kind(p, expected, desired, PLEXUS_SC, PLEXUS_SC);     \
  }

#define PLEXUS_INTEGER_ATOMICS(A, T)                                                   \
  PLEXUS_FETCH(add, A, T) PLEXUS_FETCH(sub, A, T) PLEXUS_FETCH(or, A, T)               \
  PLEXUS_FETCH(xor, A, T) PLEXUS_FETCH(and, A, T) PLEXUS_FETCH(min, A, T)              \
  PLEXUS_FETCH(max, A, T) PLEXUS_LOAD_STORE(A, T)                                      \
  PLEXUS_COMPARE_EXCHANGE(strong, 0, A, T) PLEXUS_COMPARE_EXCHANGE(weak, 1, A, T)

PLEXUS_INTEGER_ATOMICS(atomic_int, int)
PLEXUS_INTEGER_ATOMICS(atomic_uint, uint)
PLEXUS_INTEGER_ATOMICS(atomic_long, long)
PLEXUS_INTEGER_ATOMICS(atomic_ulong, ulong)
PLEXUS_LOAD_STORE(atomic_float, float)
PLEXUS_LOAD_STORE(atomic_double, double)
PLEXUS_COMPARE_EXCHANGE(strong, 0, atomic_float, float)
PLEXUS_COMPARE_EXCHANGE(weak, 1, atomic_float, float)

PLEXUS_DEF void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
                                       memory_scope scope) {
  __c11_atomic_thread_fence(PLEXUS_SC);
}
