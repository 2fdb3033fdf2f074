// The function objects of SYCL's group algorithms: sycl::plus<T>, and sycl::plus<> (=
// plus<void>) that deduces T; likewise multiplies, minimum, maximum, bit_and, bit_or,
// bit_xor, logical_and, logical_or. sycl::known_identity<Op, T>::value (and
// known_identity_v) is the value x with op(x, y) == y: what an exclusive scan without an
// init starts from. Limits come from OpenCL's macros; minimum's identity for floating
// point is +infinity, maximum's -infinity (as SYCL specifies).
#pragma once

namespace sycl {

#define PLEXUS_SYCL_FUNCTION_OBJECT(name, result, expression)  \
  template <typename T = void>                                \
  struct name {                                               \
    result operator()(T a, T b) const { return expression; }  \
  };                                                          \
  template <>                                                 \
  struct name<void> {                                         \
    template <typename T>                                     \
    auto operator()(T a, T b) const { return expression; }    \
  };
PLEXUS_SYCL_FUNCTION_OBJECT(plus, T, a + b)
PLEXUS_SYCL_FUNCTION_OBJECT(multiplies, T, a * b)
PLEXUS_SYCL_FUNCTION_OBJECT(minimum, T, b < a ? b : a)
PLEXUS_SYCL_FUNCTION_OBJECT(maximum, T, a < b ? b : a)
PLEXUS_SYCL_FUNCTION_OBJECT(bit_and, T, a & b)
PLEXUS_SYCL_FUNCTION_OBJECT(bit_or, T, a | b)
PLEXUS_SYCL_FUNCTION_OBJECT(bit_xor, T, a ^ b)
PLEXUS_SYCL_FUNCTION_OBJECT(logical_and, bool, a && b)
PLEXUS_SYCL_FUNCTION_OBJECT(logical_or, bool, a || b)
#undef PLEXUS_SYCL_FUNCTION_OBJECT

namespace detail {

// The largest and the lowest value of T (floating point: the infinities).
template <typename T> struct limits;
#define PLEXUS_SYCL_LIMITS(type, high, low)                  \
  template <> struct limits<type> {                          \
    static constexpr type max() { return high; }             \
    static constexpr type lowest() { return low; }           \
  };
PLEXUS_SYCL_LIMITS(bool, true, false)
PLEXUS_SYCL_LIMITS(char, CHAR_MAX, CHAR_MIN)
PLEXUS_SYCL_LIMITS(signed char, SCHAR_MAX, SCHAR_MIN)
PLEXUS_SYCL_LIMITS(uchar, UCHAR_MAX, 0)
PLEXUS_SYCL_LIMITS(short, SHRT_MAX, SHRT_MIN)
PLEXUS_SYCL_LIMITS(ushort, USHRT_MAX, 0)
PLEXUS_SYCL_LIMITS(int, INT_MAX, INT_MIN)
PLEXUS_SYCL_LIMITS(uint, UINT_MAX, 0)
PLEXUS_SYCL_LIMITS(long, LONG_MAX, LONG_MIN)
PLEXUS_SYCL_LIMITS(ulong, ULONG_MAX, 0)
PLEXUS_SYCL_LIMITS(float, __builtin_huge_valf(), -__builtin_huge_valf())
PLEXUS_SYCL_LIMITS(double, __builtin_huge_val(), -__builtin_huge_val())
#undef PLEXUS_SYCL_LIMITS

template <typename Op, typename T> struct identity { static constexpr bool known = false; };
#define PLEXUS_SYCL_IDENTITY(op, expression)                     \
  template <typename U, typename T> struct identity<op<U>, T> {  \
    static constexpr bool known = true;                          \
    static constexpr T value() { return expression; }            \
  };
PLEXUS_SYCL_IDENTITY(plus, T(0))
PLEXUS_SYCL_IDENTITY(multiplies, T(1))
PLEXUS_SYCL_IDENTITY(minimum, limits<T>::max())
PLEXUS_SYCL_IDENTITY(maximum, limits<T>::lowest())
PLEXUS_SYCL_IDENTITY(bit_and, T(~T(0)))
PLEXUS_SYCL_IDENTITY(bit_or, T(0))
PLEXUS_SYCL_IDENTITY(bit_xor, T(0))
PLEXUS_SYCL_IDENTITY(logical_and, T(true))
PLEXUS_SYCL_IDENTITY(logical_or, T(false))
#undef PLEXUS_SYCL_IDENTITY

}  // namespace detail

template <typename BinaryOperation, typename T>
struct has_known_identity {
  static constexpr bool value = detail::identity<BinaryOperation, T>::known;
};
template <typename BinaryOperation, typename T>
inline constexpr bool has_known_identity_v = has_known_identity<BinaryOperation, T>::value;

template <typename BinaryOperation, typename T>
struct known_identity {
  static_assert(has_known_identity_v<BinaryOperation, T>,
                "this operation has no known identity for this type: give the scan an init value");
  static constexpr T value = detail::identity<BinaryOperation, T>::value();
};
template <typename BinaryOperation, typename T>
inline constexpr T known_identity_v = known_identity<BinaryOperation, T>::value;

}  // namespace sycl
