// Integer builtins of the host device library: min, max, clamp, abs, mad24, mul24 for the
// scalar integer types and their 2-, 4-, 8- and 16-element vectors.
#define PLEXUS_DEF __attribute__((overloadable))

#define PLEXUS_INT_VEC(name, T, ARGS, CALL_LO, CALL_HI, R)                              \
  PLEXUS_DEF R##2 name ARGS(T##2) { return (R##2)(CALL_LO, CALL_HI); }                  \
  PLEXUS_DEF R##4 name ARGS(T##4) { return (R##4)(CALL_LO, CALL_HI); }                  \
  PLEXUS_DEF R##8 name ARGS(T##8) { return (R##8)(CALL_LO, CALL_HI); }                  \
  PLEXUS_DEF R##16 name ARGS(T##16) { return (R##16)(CALL_LO, CALL_HI); }
#define PLEXUS_ARGS1(V) (V x)
#define PLEXUS_ARGS2(V) (V x, V y)
#define PLEXUS_ARGS3(V) (V x, V y, V z)

#define PLEXUS_INTEGER(T, UT)                                                             \
  PLEXUS_DEF T min(T x, T y) { return y < x ? y : x; }                                    \
  PLEXUS_DEF T max(T x, T y) { return x < y ? y : x; }                                    \
  PLEXUS_DEF T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                     \
  PLEXUS_DEF UT abs(T x) { return x < (T)0 ? (UT)(-x) : (UT)x; }                          \
  PLEXUS_INT_VEC(min, T, PLEXUS_ARGS2, min(x.lo, y.lo), min(x.hi, y.hi), T)               \
  PLEXUS_INT_VEC(max, T, PLEXUS_ARGS2, max(x.lo, y.lo), max(x.hi, y.hi), T)               \
  PLEXUS_INT_VEC(clamp, T, PLEXUS_ARGS3, clamp(x.lo, y.lo, z.lo), clamp(x.hi, y.hi, z.hi), T) \
  PLEXUS_INT_VEC(abs, T, PLEXUS_ARGS1, abs(x.lo), abs(x.hi), UT)

PLEXUS_DEF char min(char x, char y) { return y < x ? y : x; }
PLEXUS_DEF char max(char x, char y) { return x < y ? y : x; }
PLEXUS_DEF char clamp(char x, char lo, char hi) { return min(max(x, lo), hi); }
PLEXUS_INTEGER(uchar, uchar)
PLEXUS_INTEGER(short, ushort)
PLEXUS_INTEGER(ushort, ushort)
PLEXUS_INTEGER(int, uint)
PLEXUS_INTEGER(uint, uint)
PLEXUS_INTEGER(long, ulong)
PLEXUS_INTEGER(ulong, ulong)

PLEXUS_DEF int mul24(int x, int y) { return x * y; }
PLEXUS_DEF uint mul24(uint x, uint y) { return x * y; }
PLEXUS_DEF int mad24(int x, int y, int z) { return x * y + z; }
PLEXUS_DEF uint mad24(uint x, uint y, uint z) { return x * y + z; }
