// Math and common builtins of the host device library: float and double, scalars and
// vectors of 2, 3, 4, 8 and 16 (vectors element by element through their halves; LLVM
// re-vectorises after inlining). Scalars map to clang builtins, which become LLVM
// intrinsics or calls into the C library's libm (resolved in the process at JIT time).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define PLEXUS_DEF __attribute__((overloadable))

// Vector forms of a function already defined for the scalar type T.
#define PLEXUS_VEC1(name, T)                                                                  \
  PLEXUS_DEF T##2 name(T##2 x) { return (T##2)(name(x.x), name(x.y)); }                       \
  PLEXUS_DEF T##3 name(T##3 x) { return (T##3)(name(x.x), name(x.y), name(x.z)); }            \
  PLEXUS_DEF T##4 name(T##4 x) { return (T##4)(name(x.lo), name(x.hi)); }                     \
  PLEXUS_DEF T##8 name(T##8 x) { return (T##8)(name(x.lo), name(x.hi)); }                     \
  PLEXUS_DEF T##16 name(T##16 x) { return (T##16)(name(x.lo), name(x.hi)); }
#define PLEXUS_VEC2(name, T)                                                                  \
  PLEXUS_DEF T##2 name(T##2 x, T##2 y) { return (T##2)(name(x.x, y.x), name(x.y, y.y)); }     \
  PLEXUS_DEF T##3 name(T##3 x, T##3 y) {                                                      \
    return (T##3)(name(x.x, y.x), name(x.y, y.y), name(x.z, y.z));                            \
  }                                                                                           \
  PLEXUS_DEF T##4 name(T##4 x, T##4 y) { return (T##4)(name(x.lo, y.lo), name(x.hi, y.hi)); } \
  PLEXUS_DEF T##8 name(T##8 x, T##8 y) { return (T##8)(name(x.lo, y.lo), name(x.hi, y.hi)); } \
  PLEXUS_DEF T##16 name(T##16 x, T##16 y) { return (T##16)(name(x.lo, y.lo), name(x.hi, y.hi)); }
#define PLEXUS_VEC3(name, T)                                                                  \
  PLEXUS_DEF T##2 name(T##2 x, T##2 y, T##2 z) {                                              \
    return (T##2)(name(x.x, y.x, z.x), name(x.y, y.y, z.y));                                  \
  }                                                                                           \
  PLEXUS_DEF T##3 name(T##3 x, T##3 y, T##3 z) {                                              \
    return (T##3)(name(x.x, y.x, z.x), name(x.y, y.y, z.y), name(x.z, y.z, z.z));             \
  }                                                                                           \
  PLEXUS_DEF T##4 name(T##4 x, T##4 y, T##4 z) {                                              \
    return (T##4)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi));                            \
  }                                                                                           \
  PLEXUS_DEF T##8 name(T##8 x, T##8 y, T##8 z) {                                              \
    return (T##8)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi));                            \
  }                                                                                           \
  PLEXUS_DEF T##16 name(T##16 x, T##16 y, T##16 z) {                                          \
    return (T##16)(name(x.lo, y.lo, z.lo), name(x.hi, y.hi, z.hi));                           \
  }
// Forms whose trailing arguments may be scalars: f(vector, scalar), f(vector, scalar, scalar).
#define PLEXUS_VEC2_SCALAR(name, T, N) \
  PLEXUS_DEF T##N name(T##N x, T y) { return name(x, (T##N)(y)); }
#define PLEXUS_VEC2_SCALARS(name, T) \
  PLEXUS_VEC2_SCALAR(name, T, 2) PLEXUS_VEC2_SCALAR(name, T, 3) PLEXUS_VEC2_SCALAR(name, T, 4) \
  PLEXUS_VEC2_SCALAR(name, T, 8) PLEXUS_VEC2_SCALAR(name, T, 16)

// Unary functions: float and double scalar from a builtin pair, then every vector.
#define PLEXUS_UNARY(name, fbuiltin, dbuiltin)                \
  PLEXUS_DEF float name(float x) { return fbuiltin(x); }      \
  PLEXUS_DEF double name(double x) { return dbuiltin(x); }    \
  PLEXUS_VEC1(name, float) PLEXUS_VEC1(name, double)
#define PLEXUS_BINARY(name, fbuiltin, dbuiltin)                          \
  PLEXUS_DEF float name(float x, float y) { return fbuiltin(x, y); }     \
  PLEXUS_DEF double name(double x, double y) { return dbuiltin(x, y); }  \
  PLEXUS_VEC2(name, float) PLEXUS_VEC2(name, double)
#define PLEXUS_TERNARY(name, fexpr, dexpr)                                        \
  PLEXUS_DEF float name(float x, float y, float z) { return fexpr; }              \
  PLEXUS_DEF double name(double x, double y, double z) { return dexpr; }          \
  PLEXUS_VEC3(name, float) PLEXUS_VEC3(name, double)

PLEXUS_UNARY(sqrt, __builtin_sqrtf, __builtin_sqrt)
// libm's double cbrt errs by up to 3 ulps (the limit is 2): one Newton step on it.
static double plexus_cbrt(double x) {
  double r = __builtin_cbrt(x);
  if (r == 0 || !(__builtin_fabs(r) < __builtin_inf())) return r;
  return r - (r - x / (r * r)) / 3.0;
}
PLEXUS_UNARY(cbrt, __builtin_cbrtf, plexus_cbrt)
PLEXUS_UNARY(exp, __builtin_expf, __builtin_exp)
PLEXUS_UNARY(exp2, __builtin_exp2f, __builtin_exp2)
PLEXUS_UNARY(expm1, __builtin_expm1f, __builtin_expm1)
PLEXUS_UNARY(log, __builtin_logf, __builtin_log)
PLEXUS_UNARY(log2, __builtin_log2f, __builtin_log2)
PLEXUS_UNARY(log10, __builtin_log10f, __builtin_log10)
PLEXUS_UNARY(log1p, __builtin_log1pf, __builtin_log1p)
PLEXUS_UNARY(sin, __builtin_sinf, __builtin_sin)
PLEXUS_UNARY(cos, __builtin_cosf, __builtin_cos)
PLEXUS_UNARY(tan, __builtin_tanf, __builtin_tan)
PLEXUS_UNARY(asin, __builtin_asinf, __builtin_asin)
PLEXUS_UNARY(acos, __builtin_acosf, __builtin_acos)
PLEXUS_UNARY(atan, __builtin_atanf, __builtin_atan)
PLEXUS_UNARY(sinh, __builtin_sinhf, __builtin_sinh)
PLEXUS_UNARY(cosh, __builtin_coshf, __builtin_cosh)
PLEXUS_UNARY(tanh, __builtin_tanhf, __builtin_tanh)
PLEXUS_UNARY(fabs, __builtin_fabsf, __builtin_fabs)
PLEXUS_UNARY(floor, __builtin_floorf, __builtin_floor)
PLEXUS_UNARY(ceil, __builtin_ceilf, __builtin_ceil)
PLEXUS_UNARY(trunc, __builtin_truncf, __builtin_trunc)
PLEXUS_UNARY(round, __builtin_roundf, __builtin_round)
PLEXUS_UNARY(rint, __builtin_rintf, __builtin_rint)
PLEXUS_UNARY(erf, __builtin_erff, __builtin_erf)

#define PLEXUS_RSQRT_F(x) (1.0f / __builtin_sqrtf(x))
#define PLEXUS_RSQRT_D(x) (1.0 / __builtin_sqrt(x))
PLEXUS_UNARY(rsqrt, PLEXUS_RSQRT_F, PLEXUS_RSQRT_D)

PLEXUS_BINARY(pow, __builtin_powf, __builtin_pow)
// powr is pow for x >= 0 with its own special cases: NaN for x < 0, 0^0, inf^0, 1^inf
// and any NaN argument.
#define PLEXUS_POWR(x, y, pow_function)                                                  \
  (((x) < 0 || (x) != (x) || (y) != (y) || ((x) == 0 && (y) == 0) ||                     \
    (__builtin_isinf(x) && (y) == 0) || ((x) == 1 && __builtin_isinf(y)))                \
       ? __builtin_nan("")                                                               \
       : pow_function(__builtin_fabs(x), y))  /* +0 for -0: powr(-0, y < 0) is +inf */
#define PLEXUS_POWR_F(x, y) ((float)PLEXUS_POWR(x, y, __builtin_powf))
#define PLEXUS_POWR_D(x, y) PLEXUS_POWR(x, y, __builtin_pow)
PLEXUS_BINARY(powr, PLEXUS_POWR_F, PLEXUS_POWR_D)
PLEXUS_BINARY(atan2, __builtin_atan2f, __builtin_atan2)
PLEXUS_BINARY(hypot, __builtin_hypotf, __builtin_hypot)
PLEXUS_BINARY(fmod, __builtin_fmodf, __builtin_fmod)
PLEXUS_BINARY(copysign, __builtin_copysignf, __builtin_copysign)
PLEXUS_BINARY(fmin, __builtin_fminf, __builtin_fmin)
PLEXUS_BINARY(fmax, __builtin_fmaxf, __builtin_fmax)
PLEXUS_VEC2_SCALARS(fmin, float) PLEXUS_VEC2_SCALARS(fmin, double)
PLEXUS_VEC2_SCALARS(fmax, float) PLEXUS_VEC2_SCALARS(fmax, double)

// pow, not powi's repeated products (which overflow on the way to a result in range).
PLEXUS_DEF float pown(float x, int n) { return (float)__builtin_pow((double)x, (double)n); }
PLEXUS_DEF double pown(double x, int n) { return __builtin_pow(x, (double)n); }

PLEXUS_TERNARY(fma, __builtin_fmaf(x, y, z), __builtin_fma(x, y, z))
PLEXUS_TERNARY(mad, x * y + z, x * y + z)
PLEXUS_TERNARY(mix, x + (y - x) * z, x + (y - x) * z)
PLEXUS_TERNARY(clamp, __builtin_fminf(__builtin_fmaxf(x, y), z),
               __builtin_fmin(__builtin_fmax(x, y), z))

// mix(v, v, s) and clamp(v, s, s).
#define PLEXUS_VEC_MIX_CLAMP(T, N)                                                     \
  PLEXUS_DEF T##N mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)(a)); }            \
  PLEXUS_DEF T##N clamp(T##N x, T lo, T hi) { return clamp(x, (T##N)(lo), (T##N)(hi)); }
#define PLEXUS_VEC_MIX_CLAMP_ALL(T)                                                     \
  PLEXUS_VEC_MIX_CLAMP(T, 2) PLEXUS_VEC_MIX_CLAMP(T, 3) PLEXUS_VEC_MIX_CLAMP(T, 4)      \
  PLEXUS_VEC_MIX_CLAMP(T, 8) PLEXUS_VEC_MIX_CLAMP(T, 16)
PLEXUS_VEC_MIX_CLAMP_ALL(float)
PLEXUS_VEC_MIX_CLAMP_ALL(double)

#define PLEXUS_STEP_F(x, y) ((y) < (x) ? 0.0f : 1.0f)
#define PLEXUS_STEP_D(x, y) ((y) < (x) ? 0.0 : 1.0)
PLEXUS_BINARY(step, PLEXUS_STEP_F, PLEXUS_STEP_D)
#define PLEXUS_SIGN_F(x) ((x) > 0.0f ? 1.0f : (x) < 0.0f ? -1.0f : (x) == (x) ? (x) : 0.0f)
#define PLEXUS_SIGN_D(x) ((x) > 0.0 ? 1.0 : (x) < 0.0 ? -1.0 : (x) == (x) ? (x) : 0.0)
PLEXUS_UNARY(sign, PLEXUS_SIGN_F, PLEXUS_SIGN_D)
#define PLEXUS_DEGREES_F(x) ((x) * 57.295779513082320876798f)
#define PLEXUS_DEGREES_D(x) ((x) * 57.295779513082320876798)
PLEXUS_UNARY(degrees, PLEXUS_DEGREES_F, PLEXUS_DEGREES_D)
#define PLEXUS_RADIANS_F(x) ((x) * 0.017453292519943295769f)
#define PLEXUS_RADIANS_D(x) ((x) * 0.017453292519943295769)
PLEXUS_UNARY(radians, PLEXUS_RADIANS_F, PLEXUS_RADIANS_D)

// native_* and half_*: the full-precision functions.
#define PLEXUS_ALIAS1(alias, name) PLEXUS_UNARY(alias, name, name)
#define PLEXUS_ALIAS2(alias, name) PLEXUS_BINARY(alias, name, name)
PLEXUS_ALIAS1(native_sqrt, sqrt) PLEXUS_ALIAS1(native_rsqrt, rsqrt)
PLEXUS_ALIAS1(native_exp, exp) PLEXUS_ALIAS1(native_exp2, exp2)
PLEXUS_ALIAS1(native_log, log) PLEXUS_ALIAS1(native_log2, log2)
PLEXUS_ALIAS1(native_sin, sin) PLEXUS_ALIAS1(native_cos, cos) PLEXUS_ALIAS1(native_tan, tan)
PLEXUS_ALIAS1(half_sqrt, sqrt) PLEXUS_ALIAS1(half_exp, exp) PLEXUS_ALIAS1(half_log, log)
PLEXUS_ALIAS2(native_powr, powr)
#define PLEXUS_RECIP(x) (1 / (x))
PLEXUS_UNARY(native_recip, PLEXUS_RECIP, PLEXUS_RECIP)
#define PLEXUS_DIVIDE(x, y) ((x) / (y))
PLEXUS_BINARY(native_divide, PLEXUS_DIVIDE, PLEXUS_DIVIDE)
