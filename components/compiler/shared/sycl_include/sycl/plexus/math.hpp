// The sycl:: math, common, geometric and integer functions: OpenCL's builtins of the same
// names and semantics, for scalars and vectors (a sycl::vec converts to and from the
// native vector they take and return). DPC++'s native:: and half_precision:: variants map
// to OpenCL's native_ and half_ functions.
#pragma once

namespace sycl {

// math
using ::acos; using ::acosh; using ::acospi; using ::asin; using ::asinh; using ::asinpi;
using ::atan; using ::atan2; using ::atanh; using ::atanpi; using ::atan2pi; using ::cbrt;
using ::ceil; using ::copysign; using ::cos; using ::cosh; using ::cospi; using ::erf;
using ::erfc; using ::exp; using ::exp2; using ::exp10; using ::expm1; using ::fabs;
using ::fdim; using ::floor; using ::fma; using ::fmax; using ::fmin; using ::fmod;
using ::fract; using ::frexp; using ::hypot; using ::ilogb; using ::ldexp; using ::lgamma;
using ::log; using ::log2; using ::log10; using ::log1p; using ::logb; using ::mad;
using ::maxmag; using ::minmag; using ::modf; using ::nan; using ::nextafter; using ::pow;
using ::pown; using ::powr; using ::remainder; using ::remquo; using ::rint; using ::rootn;
using ::round; using ::rsqrt; using ::sin; using ::sincos; using ::sinh; using ::sinpi;
using ::sqrt; using ::tan; using ::tanh; using ::tanpi; using ::tgamma; using ::trunc;
// common
using ::clamp; using ::degrees; using ::max; using ::min; using ::mix; using ::radians;
using ::sign; using ::smoothstep; using ::step;
// geometric
using ::cross; using ::distance; using ::dot; using ::length; using ::normalize;
using ::fast_distance; using ::fast_length; using ::fast_normalize;
// integer
using ::abs; using ::abs_diff; using ::add_sat; using ::clz; using ::ctz; using ::hadd;
using ::mad24; using ::mad_hi; using ::mad_sat; using ::mul24; using ::mul_hi;
using ::popcount; using ::rhadd; using ::rotate; using ::sub_sat; using ::upsample;
// relational
using ::isfinite; using ::isinf; using ::isnan; using ::isnormal; using ::signbit;
using ::any; using ::all; using ::select; using ::bitselect;

namespace native {
inline float cos(float x) { return ::native_cos(x); }
inline float divide(float x, float y) { return ::native_divide(x, y); }
inline float exp(float x) { return ::native_exp(x); }
inline float exp2(float x) { return ::native_exp2(x); }
inline float exp10(float x) { return ::native_exp10(x); }
inline float log(float x) { return ::native_log(x); }
inline float log2(float x) { return ::native_log2(x); }
inline float log10(float x) { return ::native_log10(x); }
inline float powr(float x, float y) { return ::native_powr(x, y); }
inline float recip(float x) { return ::native_recip(x); }
inline float rsqrt(float x) { return ::native_rsqrt(x); }
inline float sin(float x) { return ::native_sin(x); }
inline float sqrt(float x) { return ::native_sqrt(x); }
inline float tan(float x) { return ::native_tan(x); }
}  // namespace native

}  // namespace sycl
