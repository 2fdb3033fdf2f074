// sycl::vec<T, N> (over the target's native vector) and sycl::marray<T, N> (an array):
// construction, element access, x()/y()/z()/w(), the arithmetic operators element-wise
// and with a scalar, and the sycl:: math functions (math.hpp) on vec.
#pragma once

namespace sycl {

template <typename T, int N>
class vec {
  static_assert(N == 1 || N == 2 || N == 3 || N == 4 || N == 8 || N == 16,
                "sycl::vec has 1, 2, 3, 4, 8 or 16 elements");

 public:
  using element_type = T;
  using value_type = T;
  using vector_t = T __attribute__((ext_vector_type(N)));

  vec() = default;
  explicit vec(T value) : data_((vector_t)(value)) {}
  template <typename... Values, typename = __enable_if_t<sizeof...(Values) == N && (N > 1)>>
  vec(Values... values) : data_{static_cast<T>(values)...} {}
  vec(vector_t value) : data_(value) {}
  operator vector_t() const { return data_; }

  static constexpr size_t size() noexcept { return N; }
  static constexpr size_t byte_size() noexcept { return sizeof(vector_t); }

  T& operator[](int i) { return reinterpret_cast<T*>(&data_)[i]; }
  const T& operator[](int i) const { return reinterpret_cast<const T*>(&data_)[i]; }
  T& x() { return (*this)[0]; }
  T& y() { return (*this)[1]; }
  T& z() { return (*this)[2]; }
  T& w() { return (*this)[3]; }
  T x() const { return (*this)[0]; }
  T y() const { return (*this)[1]; }
  T z() const { return (*this)[2]; }
  T w() const { return (*this)[3]; }

  template <typename U>
  vec<U, N> convert() const { return vec<U, N>(__builtin_convertvector(data_, typename vec<U, N>::vector_t)); }

#define PLEXUS_SYCL_VEC_OPERATOR(op)                                                   \
  friend vec operator op(const vec& a, const vec& b) { return vec(a.data_ op b.data_); } \
  friend vec operator op(const vec& a, T b) { return vec(a.data_ op b); }             \
  friend vec operator op(T a, const vec& b) { return vec(a op b.data_); }             \
  vec& operator op##=(const vec& b) { data_ = data_ op b.data_; return *this; }       \
  vec& operator op##=(T b) { data_ = data_ op b; return *this; }
  PLEXUS_SYCL_VEC_OPERATOR(+)
  PLEXUS_SYCL_VEC_OPERATOR(-)
  PLEXUS_SYCL_VEC_OPERATOR(*)
  PLEXUS_SYCL_VEC_OPERATOR(/)
#undef PLEXUS_SYCL_VEC_OPERATOR
  friend vec operator-(const vec& a) { return vec(-a.data_); }

 private:
  vector_t data_;
};

#define PLEXUS_SYCL_VEC_ALIASES(type, name)                                                \
  using name##2 = vec<type, 2>; using name##3 = vec<type, 3>; using name##4 = vec<type, 4>; \
  using name##8 = vec<type, 8>; using name##16 = vec<type, 16>;
PLEXUS_SYCL_VEC_ALIASES(float, float)
PLEXUS_SYCL_VEC_ALIASES(double, double)
PLEXUS_SYCL_VEC_ALIASES(int, int)
PLEXUS_SYCL_VEC_ALIASES(uint, uint)
PLEXUS_SYCL_VEC_ALIASES(long, long)
PLEXUS_SYCL_VEC_ALIASES(ulong, ulong)
PLEXUS_SYCL_VEC_ALIASES(short, short)
PLEXUS_SYCL_VEC_ALIASES(char, char)
#undef PLEXUS_SYCL_VEC_ALIASES

template <typename T, size_t N>
class marray {
 public:
  using value_type = T;

  marray() = default;
  explicit marray(T value) {
    for (size_t i = 0; i < N; ++i) values_[i] = value;
  }
  template <typename... Values, typename = __enable_if_t<sizeof...(Values) == N && (N > 1)>>
  marray(Values... values) : values_{static_cast<T>(values)...} {}

  static constexpr size_t size() noexcept { return N; }
  T& operator[](size_t i) { return values_[i]; }
  const T& operator[](size_t i) const { return values_[i]; }
  T* begin() { return values_; }
  T* end() { return values_ + N; }

#define PLEXUS_SYCL_MARRAY_OPERATOR(op)                                      \
  friend marray operator op(const marray& a, const marray& b) {              \
    marray r;                                                                \
    for (size_t i = 0; i < N; ++i) r.values_[i] = a.values_[i] op b.values_[i]; \
    return r;                                                                \
  }                                                                          \
  friend marray operator op(const marray& a, T b) { return a op marray(b); } \
  friend marray operator op(T a, const marray& b) { return marray(a) op b; } \
  marray& operator op##=(const marray& b) { return *this = *this op b; }     \
  marray& operator op##=(T b) { return *this = *this op b; }
  PLEXUS_SYCL_MARRAY_OPERATOR(+)
  PLEXUS_SYCL_MARRAY_OPERATOR(-)
  PLEXUS_SYCL_MARRAY_OPERATOR(*)
  PLEXUS_SYCL_MARRAY_OPERATOR(/)
#undef PLEXUS_SYCL_MARRAY_OPERATOR

 private:
  T values_[N] = {};
};

}  // namespace sycl
