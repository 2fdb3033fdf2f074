// sycl::vec<T, N> (over the target's native vector; vec<half, N> over an array of halves,
// half.hpp) and sycl::marray<T, N> (an array): construction, element access,
// x()/y()/z()/w(), the arithmetic operators element-wise and with a scalar, convert<U>()
// (half included), and the sycl:: math functions (math.hpp) on vec.
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
  vec<U, N> convert() const {
    if constexpr (__is_same(U, half)) {
      vec<U, N> r;
      for (int i = 0; i < N; ++i) r[i] = half((*this)[i]);
      return r;
    } else {
      return vec<U, N>(__builtin_convertvector(data_, typename vec<U, N>::vector_t));
    }
  }

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

// vec<half, N>: N halves; arithmetic element by element (in float, rounded to half).
template <int N>
class vec<half, N> {
  static_assert(N == 1 || N == 2 || N == 3 || N == 4 || N == 8 || N == 16,
                "sycl::vec has 1, 2, 3, 4, 8 or 16 elements");

 public:
  using element_type = half;
  using value_type = half;

  vec() = default;
  explicit vec(half value) {
    for (int i = 0; i < N; ++i) data_[i] = value;
  }
  template <typename... Values, typename = __enable_if_t<sizeof...(Values) == N && (N > 1)>>
  vec(Values... values) : data_{static_cast<half>(values)...} {}

  static constexpr size_t size() noexcept { return N; }
  static constexpr size_t byte_size() noexcept { return sizeof(half) * (N == 3 ? 4 : N); }

  half& operator[](int i) { return data_[i]; }
  const half& operator[](int i) const { return data_[i]; }
  half& x() { return data_[0]; }
  half& y() { return data_[1]; }
  half& z() { return data_[2]; }
  half& w() { return data_[3]; }
  half x() const { return data_[0]; }
  half y() const { return data_[1]; }
  half z() const { return data_[2]; }
  half w() const { return data_[3]; }

  template <typename U>
  vec<U, N> convert() const {
    vec<U, N> r;
    for (int i = 0; i < N; ++i) r[i] = static_cast<U>(data_[i]);
    return r;
  }

#define PLEXUS_SYCL_HALF_VEC_OPERATOR(op)                                 \
  friend vec operator op(const vec& a, const vec& b) {                    \
    vec r;                                                                \
    for (int i = 0; i < N; ++i) r.data_[i] = a.data_[i] op b.data_[i];    \
    return r;                                                             \
  }                                                                       \
  friend vec operator op(const vec& a, half b) { return a op vec(b); }    \
  friend vec operator op(half a, const vec& b) { return vec(a) op b; }    \
  vec& operator op##=(const vec& b) { return *this = *this op b; }        \
  vec& operator op##=(half b) { return *this = *this op vec(b); }
  PLEXUS_SYCL_HALF_VEC_OPERATOR(+)
  PLEXUS_SYCL_HALF_VEC_OPERATOR(-)
  PLEXUS_SYCL_HALF_VEC_OPERATOR(*)
  PLEXUS_SYCL_HALF_VEC_OPERATOR(/)
#undef PLEXUS_SYCL_HALF_VEC_OPERATOR
  friend vec operator-(const vec& a) {
    vec r;
    for (int i = 0; i < N; ++i) r.data_[i] = -a.data_[i];
    return r;
  }

 private:
  half data_[N == 3 ? 4 : N];
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
PLEXUS_SYCL_VEC_ALIASES(half, half)
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
