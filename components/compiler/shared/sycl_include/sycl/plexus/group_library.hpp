// The precompiled collectives: the work-group reduce and scan (group_reduce_in,
// group_scan_in) for the common value types and operations, compiled once per command line
// into a device library by compiler/clang (components/compiler/clang/README.md,
// "Precompiled collectives") and linked into the frontend's module after its O2, so a
// source that uses them does not instantiate and optimise their bodies.
//
// With __PLEXUS_SYCL_COLLECTIVES_LIBRARY defined (compiler/clang defines it where it links
// the library) group_reduce/group_scan call the library_reduce/library_scan declared here
// for the instances PLEXUS_SYCL_LIBRARY_COLLECTIVES lists; otherwise (the process compiler,
// or sycl_collectives = false) every instance is compiled from the header as before. The
// scratch is a parameter: each kernel still passes its own local memory (a library function
// holds no work-group variable of its own). sycl::name<> and sycl::name<T> are the same
// operation for these types (no promotion), so both use the library.
#pragma once

namespace sycl {
namespace detail {

// X(T, name) for each value type and operation the library holds.
#define PLEXUS_SYCL_LIBRARY_TYPES(X, name) \
  X(int, name) X(uint, name) X(long, name) X(ulong, name) X(float, name) X(double, name)
#define PLEXUS_SYCL_LIBRARY_COLLECTIVES(X)                                      \
  PLEXUS_SYCL_LIBRARY_TYPES(X, plus) PLEXUS_SYCL_LIBRARY_TYPES(X, multiplies) \
  PLEXUS_SYCL_LIBRARY_TYPES(X, minimum) PLEXUS_SYCL_LIBRARY_TYPES(X, maximum)

// library_op<T, Op>::has: whether the library holds (T, Op); ::type, its operation.
template <typename T, typename Op>
struct library_op {
  static constexpr bool has = false;
};
#define PLEXUS_SYCL_LIBRARY_DECLARE(T, name)                                              \
  template <> struct library_op<T, name<T>> {                                             \
    static constexpr bool has = true;                                                     \
    using type = name<T>;                                                                 \
  };                                                                                      \
  template <> struct library_op<T, name<void>> {                                          \
    static constexpr bool has = true;                                                     \
    using type = name<T>;                                                                 \
  };                                                                                      \
  T library_reduce(group_scratch<T>& scratch, T value, name<T> op);                       \
  T library_scan(group_scratch<maybe<T>>& scratch, T value, name<T> op, maybe<T>& before);
PLEXUS_SYCL_LIBRARY_COLLECTIVES(PLEXUS_SYCL_LIBRARY_DECLARE)
#undef PLEXUS_SYCL_LIBRARY_DECLARE

}  // namespace detail
}  // namespace sycl

// The library's definitions (its source is `#include <sycl/sycl.hpp>` and
// PLEXUS_SYCL_LIBRARY_COLLECTIVES(PLEXUS_SYCL_LIBRARY_DEFINE), at file scope).
#define PLEXUS_SYCL_LIBRARY_DEFINE(T, name)                                                  \
  namespace sycl::detail {                                                                   \
  T library_reduce(group_scratch<T>& scratch, T value, name<T> op) {                         \
    return group_reduce_in(scratch, value, op);                                              \
  }                                                                                          \
  T library_scan(group_scratch<maybe<T>>& scratch, T value, name<T> op, maybe<T>& before) { \
    return group_scan_in(scratch, value, op, before);                                        \
  }                                                                                          \
  }
