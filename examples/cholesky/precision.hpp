// The element type of the factored matrix (`cholesky --precision single|double`): float or
// double. The tile graph, the OpenCL C kernels and the BLAS tiles are templates on the element
// type (instantiated for float and double); Precision names it where it travels as a value
// (a native call's arguments, across processes) and with_element() turns it back into the
// type. Plain values and pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace cholesky {

enum class Precision : std::uint32_t { double_ = 0, single = 1 };

template <class T>
inline constexpr Precision precision_of = [] {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "the Cholesky example factors float or double matrices");
  return std::is_same_v<T, float> ? Precision::single : Precision::double_;
}();

// "single", "double"; "precision N" for a value that is neither (from another process).
inline std::string name(Precision precision) {
  switch (precision) {
    case Precision::single:
      return "single";
    case Precision::double_:
      return "double";
  }
  return "precision " + std::to_string(static_cast<std::uint32_t>(precision));
}

inline bool known(Precision precision) {
  return precision == Precision::single || precision == Precision::double_;
}

// "single" -> single, anything else -> double (the options allow only the two words).
inline Precision precision_named(const std::string& word) {
  return word == "single" ? Precision::single : Precision::double_;
}

inline std::size_t element_size(Precision precision) {
  return precision == Precision::single ? sizeof(float) : sizeof(double);
}

// `for_float` when T is float, else `for_double`: picks one element type's routine of a pair
// (cblas_sgemm, cblas_dgemm) at compile time.
template <class T, class F, class D>
constexpr auto of_element(F for_float, D for_double) {
  if constexpr (precision_of<T> == Precision::single)
    return for_float;
  else
    return for_double;
}

// f(float{}) or f(double{}) as `precision` says (double for any other value: check known()
// first where the value may come from elsewhere); returns what f returns.
template <class F>
decltype(auto) with_element(Precision precision, F&& f) {
  if (precision == Precision::single) return f(float{});
  return f(double{});
}

}  // namespace cholesky
