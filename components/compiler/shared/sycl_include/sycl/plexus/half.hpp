// sycl::half: IEEE binary16, on every target. Devices without cl_khr_fp16 (PoCL's CPU
// device, PTX and the host in Clang 15's OpenCL mode) have no half arithmetic, so a half
// stores its 16 bits and computes in float: each operation converts its operands to float
// and rounds the result to half once, which for + - * / is the correctly rounded half
// result (float has more than twice half's precision). Conversions: vload_half/vstore_half
// (OpenCL's core functions: libclc, the host device library, PoCL's library and SPIR-V's
// OpenCL.std; on SPIR the private-pointer forms), _Float16 on AMDGCN (libclc 15 lacks the
// generic-pointer vstore_half there);
// in constant expressions a software conversion (round to nearest even, like the others).
//
// Mixed arithmetic follows DPC++: half op float/double gives float/double, half op an
// integer gives half. OpenCL's own `half` keyword is renamed in sycl.hpp (the type stays
// reachable as __fp16), so `half` and `sycl::half` name this class.
#pragma once

namespace sycl {

namespace detail {

constexpr ushort half_bits_of(float value) {
  const uint x = __builtin_bit_cast(uint, value);
  const uint sign = (x >> 16) & 0x8000u;
  const uint exponent = (x >> 23) & 0xffu;
  uint mantissa = x & 0x7fffffu;
  if (exponent == 0xffu)  // infinity, NaN (quiet)
    return static_cast<ushort>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u));
  const int e = static_cast<int>(exponent) - 127 + 15;
  if (e >= 31) return static_cast<ushort>(sign | 0x7c00u);
  if (e <= 0) {  // a subnormal half, or zero
    if (e < -10) return static_cast<ushort>(sign);
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    uint bits = mantissa >> shift;
    const uint rest = mantissa & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (bits & 1u))) ++bits;
    return static_cast<ushort>(sign | bits);
  }
  uint bits = sign | (static_cast<uint>(e) << 10) | (mantissa >> 13);
  const uint rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (bits & 1u))) ++bits;  // may carry to infinity
  return static_cast<ushort>(bits);
}

constexpr float float_of_half_bits(ushort bits) {
  const uint sign = static_cast<uint>(bits & 0x8000u) << 16;
  const uint exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
  if (exponent == 0x1fu) return __builtin_bit_cast(float, sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    const float value = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // 2^-24
    return sign ? -value : value;
  }
  return __builtin_bit_cast(float, sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

#ifdef __SPIR__
// The private-pointer forms, under their SPIR names (C++ for OpenCL declares only the
// generic ones, which PoCL's library lacks; SPIR-V takes either).
float vload_half_private(size_t offset, const __private __fp16* p) __asm("_Z10vload_halfmPKDh");
void vstore_half_private(float value, size_t offset, __private __fp16* p) __asm("_Z11vstore_halffmPDh");
#endif

inline float half_to_float(ushort bits) {
#if defined(__AMDGCN__)
  return static_cast<float>(__builtin_bit_cast(_Float16, bits));
#elif defined(__SPIR__)
  __private ushort copy = bits;
  return vload_half_private(0, reinterpret_cast<const __private __fp16*>(&copy));
#else
  return ::vload_half(0, reinterpret_cast<const __fp16*>(&bits));
#endif
}
inline ushort float_to_half(float value) {
#if defined(__AMDGCN__)
  return __builtin_bit_cast(ushort, static_cast<_Float16>(value));
#elif defined(__SPIR__)
  __private ushort bits = 0;
  vstore_half_private(value, 0, reinterpret_cast<__private __fp16*>(&bits));
  return bits;
#else
  ushort bits = 0;
  ::vstore_half(value, 0, reinterpret_cast<__fp16*>(&bits));
  return bits;
#endif
}

template <typename T>
inline constexpr bool is_half_operand = __is_arithmetic(T);
template <typename T>
inline constexpr bool is_floating = __is_floating_point(T);
// half op T: float/double for floating point T, else half.
template <typename T, bool Floating = is_floating<T>>
struct half_result { using type = T; };

}  // namespace detail

class half {
 public:
  half() = default;
  constexpr half(float value)
      : bits_(__builtin_is_constant_evaluated() ? detail::half_bits_of(value)
                                                : detail::float_to_half(value)) {}
  constexpr half(double value) : half(static_cast<float>(value)) {}
  template <typename T, typename = __enable_if_t<__is_integral(T)>>
  constexpr half(T value) : half(static_cast<float>(value)) {}

  constexpr operator float() const {
    return __builtin_is_constant_evaluated() ? detail::float_of_half_bits(bits_)
                                             : detail::half_to_float(bits_);
  }

  static constexpr half from_bits(ushort bits) {
    half h;
    h.bits_ = bits;
    return h;
  }
  constexpr ushort bits() const { return bits_; }

#define PLEXUS_SYCL_HALF_OPERATOR(op)                                                       \
  friend half operator op(half a, half b) { return half(float(a) op float(b)); }           \
  template <typename T, typename = __enable_if_t<detail::is_half_operand<T>>>              \
  friend typename detail::half_result<T>::type operator op(half a, T b) {                  \
    using R = typename detail::half_result<T>::type;                                       \
    return R(float(a) op b);                                                               \
  }                                                                                        \
  template <typename T, typename = __enable_if_t<detail::is_half_operand<T>>>              \
  friend typename detail::half_result<T>::type operator op(T a, half b) {                  \
    using R = typename detail::half_result<T>::type;                                       \
    return R(a op float(b));                                                               \
  }                                                                                        \
  half& operator op##=(half b) { return *this = *this op b; }                              \
  template <typename T, typename = __enable_if_t<detail::is_half_operand<T>>>              \
  half& operator op##=(T b) { return *this = half(float(*this) op b); }
  PLEXUS_SYCL_HALF_OPERATOR(+)
  PLEXUS_SYCL_HALF_OPERATOR(-)
  PLEXUS_SYCL_HALF_OPERATOR(*)
  PLEXUS_SYCL_HALF_OPERATOR(/)
#undef PLEXUS_SYCL_HALF_OPERATOR

#define PLEXUS_SYCL_HALF_COMPARISON(op)                                                     \
  friend bool operator op(half a, half b) { return float(a) op float(b); }                 \
  template <typename T, typename = __enable_if_t<detail::is_half_operand<T>>>              \
  friend bool operator op(half a, T b) { return float(a) op b; }                           \
  template <typename T, typename = __enable_if_t<detail::is_half_operand<T>>>              \
  friend bool operator op(T a, half b) { return a op float(b); }
  PLEXUS_SYCL_HALF_COMPARISON(==)
  PLEXUS_SYCL_HALF_COMPARISON(!=)
  PLEXUS_SYCL_HALF_COMPARISON(<)
  PLEXUS_SYCL_HALF_COMPARISON(>)
  PLEXUS_SYCL_HALF_COMPARISON(<=)
  PLEXUS_SYCL_HALF_COMPARISON(>=)
#undef PLEXUS_SYCL_HALF_COMPARISON

  friend half operator-(half a) { return from_bits(static_cast<ushort>(a.bits_ ^ 0x8000u)); }
  friend half operator+(half a) { return a; }
  half& operator++() { return *this += 1.0f; }
  half& operator--() { return *this -= 1.0f; }
  half operator++(int) {
    const half old = *this;
    ++*this;
    return old;
  }
  half operator--(int) {
    const half old = *this;
    --*this;
    return old;
  }

 private:
  ushort bits_;
};

namespace detail {
template <typename T>
struct half_result<T, false> { using type = half; };
template <> struct limits<half> {
  static constexpr half max() { return half::from_bits(0x7c00u); }     // +infinity
  static constexpr half lowest() { return half::from_bits(0xfc00u); }  // -infinity
};
}  // namespace detail

// The math functions on half: computed in float, rounded to half.
#define PLEXUS_SYCL_HALF_UNARY(name) \
  inline half name(half x) { return half(::name(float(x))); }
#define PLEXUS_SYCL_HALF_BINARY(name) \
  inline half name(half x, half y) { return half(::name(float(x), float(y))); }
PLEXUS_SYCL_HALF_UNARY(sqrt) PLEXUS_SYCL_HALF_UNARY(rsqrt) PLEXUS_SYCL_HALF_UNARY(cbrt)
PLEXUS_SYCL_HALF_UNARY(exp) PLEXUS_SYCL_HALF_UNARY(exp2) PLEXUS_SYCL_HALF_UNARY(exp10)
PLEXUS_SYCL_HALF_UNARY(log) PLEXUS_SYCL_HALF_UNARY(log2) PLEXUS_SYCL_HALF_UNARY(log10)
PLEXUS_SYCL_HALF_UNARY(sin) PLEXUS_SYCL_HALF_UNARY(cos) PLEXUS_SYCL_HALF_UNARY(tan)
PLEXUS_SYCL_HALF_UNARY(tanh) PLEXUS_SYCL_HALF_UNARY(fabs) PLEXUS_SYCL_HALF_UNARY(floor)
PLEXUS_SYCL_HALF_UNARY(ceil) PLEXUS_SYCL_HALF_UNARY(trunc) PLEXUS_SYCL_HALF_UNARY(round)
PLEXUS_SYCL_HALF_UNARY(rint) PLEXUS_SYCL_HALF_UNARY(erf)
PLEXUS_SYCL_HALF_BINARY(pow) PLEXUS_SYCL_HALF_BINARY(fmin) PLEXUS_SYCL_HALF_BINARY(fmax)
PLEXUS_SYCL_HALF_BINARY(fmod) PLEXUS_SYCL_HALF_BINARY(atan2) PLEXUS_SYCL_HALF_BINARY(hypot)
PLEXUS_SYCL_HALF_BINARY(copysign) PLEXUS_SYCL_HALF_BINARY(min) PLEXUS_SYCL_HALF_BINARY(max)
#undef PLEXUS_SYCL_HALF_UNARY
#undef PLEXUS_SYCL_HALF_BINARY
inline half fma(half a, half b, half c) { return half(::fma(float(a), float(b), float(c))); }
inline half mad(half a, half b, half c) { return half(::mad(float(a), float(b), float(c))); }
inline half clamp(half x, half low, half high) { return min(max(x, low), high); }
inline bool isnan(half x) { return (x.bits() & 0x7fffu) > 0x7c00u; }
inline bool isinf(half x) { return (x.bits() & 0x7fffu) == 0x7c00u; }
inline bool isfinite(half x) { return (x.bits() & 0x7c00u) != 0x7c00u; }
inline bool signbit(half x) { return (x.bits() & 0x8000u) != 0; }

}  // namespace sycl

using sycl::half;
