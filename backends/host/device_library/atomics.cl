// OpenCL 1.1 atomic_* (int, uint; xchg also float) and cl_khr_int{32,64}_*_atomics atom_*
// (int, uint, long, ulong), for __global and __local memory, through clang's __atomic
// builtins (sequentially consistent, as OpenCL 1.x atomics are).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define PLEXUS_DEF __attribute__((overloadable))
#define PLEXUS_SC __ATOMIC_SEQ_CST

#define PLEXUS_ATOMIC_RMW(prefix, name, builtin, T, AS)                       \
  PLEXUS_DEF T prefix##name(volatile AS T* p, T v) { return builtin(p, v, PLEXUS_SC); }

#define PLEXUS_ATOMIC_ALL(prefix, T, AS)                                      \
  PLEXUS_ATOMIC_RMW(prefix, add, __atomic_fetch_add, T, AS)                   \
  PLEXUS_ATOMIC_RMW(prefix, sub, __atomic_fetch_sub, T, AS)                   \
  PLEXUS_ATOMIC_RMW(prefix, xchg, __atomic_exchange_n, T, AS)                 \
  PLEXUS_ATOMIC_RMW(prefix, min, __atomic_fetch_min, T, AS)                   \
  PLEXUS_ATOMIC_RMW(prefix, max, __atomic_fetch_max, T, AS)                   \
  PLEXUS_ATOMIC_RMW(prefix, and, __atomic_fetch_and, T, AS)                   \
  PLEXUS_ATOMIC_RMW(prefix, or, __atomic_fetch_or, T, AS)                     \
  PLEXUS_ATOMIC_RMW(prefix, xor, __atomic_fetch_xor, T, AS)                   \
  PLEXUS_DEF T prefix##inc(volatile AS T* p) { return __atomic_fetch_add(p, (T)1, PLEXUS_SC); } \
  PLEXUS_DEF T prefix##dec(volatile AS T* p) { return __atomic_fetch_sub(p, (T)1, PLEXUS_SC); } \
  PLEXUS_DEF T prefix##cmpxchg(volatile AS T* p, T expected, T desired) {     \
    __atomic_compare_exchange_n(p, &expected, desired, 0, PLEXUS_SC, PLEXUS_SC); \
    return expected;                                                          \
  }

#define PLEXUS_ATOMIC_SPACES(prefix, T)                                       \
  PLEXUS_ATOMIC_ALL(prefix, T, __global)                                      \
  PLEXUS_ATOMIC_ALL(prefix, T, __local)

PLEXUS_ATOMIC_SPACES(atomic_, int)
PLEXUS_ATOMIC_SPACES(atomic_, uint)
PLEXUS_ATOMIC_SPACES(atom_, int)
PLEXUS_ATOMIC_SPACES(atom_, uint)
PLEXUS_ATOMIC_SPACES(atom_, long)
PLEXUS_ATOMIC_SPACES(atom_, ulong)

// atomic_xchg on float: the bits exchanged as an int.
#define PLEXUS_ATOMIC_XCHG_FLOAT(AS)                                          \
  PLEXUS_DEF float atomic_xchg(volatile AS float* p, float v) {               \
    return as_float(__atomic_exchange_n((volatile AS int*)p, as_int(v), PLEXUS_SC)); \
  }
PLEXUS_ATOMIC_XCHG_FLOAT(__global)
PLEXUS_ATOMIC_XCHG_FLOAT(__local)

// Float addition as a compare-and-swap loop over the bits, for kernels that accumulate
// floats (plexus_atomic_add_float: OpenCL 1.2 has no float atomic_add).
#define PLEXUS_ATOMIC_ADD_FLOAT(AS)                                           \
  PLEXUS_DEF float plexus_atomic_add_float(volatile AS float* p, float v) {   \
    volatile AS int* bits = (volatile AS int*)p;                              \
    int old = __atomic_load_n(bits, __ATOMIC_RELAXED);                        \
    while (!__atomic_compare_exchange_n(bits, &old, as_int(as_float(old) + v), 1, PLEXUS_SC, \
                                        __ATOMIC_RELAXED)) {                  \
    }                                                                         \
    return as_float(old);                                                     \
  }
PLEXUS_ATOMIC_ADD_FLOAT(__global)
PLEXUS_ATOMIC_ADD_FLOAT(__local)
