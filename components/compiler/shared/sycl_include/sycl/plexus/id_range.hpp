// sycl::id<N> and sycl::range<N>: N size_t values with the arithmetic kernels use.
#pragma once

namespace sycl {

namespace detail {

template <int Dimensions>
struct array {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "SYCL ids and ranges have 1, 2 or 3 dimensions");
  size_t values[Dimensions] = {};

  size_t get(int dimension) const { return values[dimension]; }
  size_t size() const {
    size_t n = 1;
    for (int i = 0; i < Dimensions; ++i) n *= values[i];
    return n;
  }
  size_t& operator[](int dimension) { return values[dimension]; }
  size_t operator[](int dimension) const { return values[dimension]; }
};

}  // namespace detail

#define PLEXUS_SYCL_ARRAY_CLASS(name)                                                    \
  template <int Dimensions = 1>                                                          \
  class name : public detail::array<Dimensions> {                                        \
   public:                                                                               \
    static constexpr int dimensions = Dimensions;                                        \
    name() = default;                                                                    \
    template <int D = Dimensions, typename = __enable_if_t<D == 1>>                      \
    name(size_t v0) { this->values[0] = v0; }                                            \
    template <int D = Dimensions, typename = __enable_if_t<D == 2>>                      \
    name(size_t v0, size_t v1) { this->values[0] = v0; this->values[1] = v1; }           \
    template <int D = Dimensions, typename = __enable_if_t<D == 3>>                      \
    name(size_t v0, size_t v1, size_t v2) {                                              \
      this->values[0] = v0; this->values[1] = v1; this->values[2] = v2;                  \
    }                                                                                    \
    template <int D = Dimensions, typename = __enable_if_t<D == 1>>                      \
    operator size_t() const { return this->values[0]; }                                  \
    PLEXUS_SYCL_ARRAY_OPERATOR(name, +) PLEXUS_SYCL_ARRAY_OPERATOR(name, -)              \
    PLEXUS_SYCL_ARRAY_OPERATOR(name, *) PLEXUS_SYCL_ARRAY_OPERATOR(name, /)              \
    PLEXUS_SYCL_ARRAY_OPERATOR(name, %)                                                  \
    friend bool operator==(const name& a, const name& b) {                               \
      for (int i = 0; i < Dimensions; ++i)                                               \
        if (a.values[i] != b.values[i]) return false;                                    \
      return true;                                                                       \
    }                                                                                    \
    friend bool operator!=(const name& a, const name& b) { return !(a == b); }           \
  };

#define PLEXUS_SYCL_ARRAY_OPERATOR(name, op)                                             \
  friend name operator op(const name& a, const name& b) {                                \
    name r;                                                                              \
    for (int i = 0; i < Dimensions; ++i) r.values[i] = a.values[i] op b.values[i];       \
    return r;                                                                            \
  }                                                                                      \
  friend name operator op(const name& a, size_t b) {                                     \
    name r;                                                                              \
    for (int i = 0; i < Dimensions; ++i) r.values[i] = a.values[i] op b;                 \
    return r;                                                                            \
  }                                                                                      \
  name& operator op##=(const name& b) { return *this = *this op b; }

template <bool B, typename T = void>
struct __enable_if_impl {};
template <typename T>
struct __enable_if_impl<true, T> { using type = T; };
template <bool B, typename T = void>
using __enable_if_t = typename __enable_if_impl<B, T>::type;

PLEXUS_SYCL_ARRAY_CLASS(id)
PLEXUS_SYCL_ARRAY_CLASS(range)

#undef PLEXUS_SYCL_ARRAY_OPERATOR
#undef PLEXUS_SYCL_ARRAY_CLASS

}  // namespace sycl
