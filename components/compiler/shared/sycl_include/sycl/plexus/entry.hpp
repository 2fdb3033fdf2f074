// What the generated entry points of free-function kernels use (internal; the compilers
// include it after the user's source). A kernel's entry is an OpenCL kernel whose
// parameters are the free function's with pointers in the global address space and
// work_group_memory as a __local pointer; it calls the function with them.
#pragma once

#include <sycl/sycl.hpp>  // work_group_memory, for sources that did not include it

// decltype(kernel) needs function designators, which OpenCL refuses without this.
#pragma OPENCL EXTENSION __cl_clang_function_pointers : enable

namespace __plexus_sycl {

template <typename T> struct remove_cv { using type = T; };
template <typename T> struct remove_cv<const T> { using type = T; };
template <typename T> struct remove_cv<volatile T> { using type = T; };
template <typename T> struct remove_cv<const volatile T> { using type = T; };

template <typename T>
struct param {
  using type = T;
  static constexpr bool valid = __is_trivially_copyable(T);
  static T pass(T value) { return value; }
};
template <typename T>
struct param<T*> {
  using type = __global typename __remove_address_space<T>::type*;
  static constexpr bool valid = true;
  static T* pass(type value) { return value; }
};
template <typename T>
struct param<T&> {
  using type = int;
  static constexpr bool valid = false;
};
template <typename D, typename P>
struct param<sycl::ext::oneapi::experimental::work_group_memory<D, P>> {
  using memory = sycl::ext::oneapi::experimental::work_group_memory<D, P>;
  using type = __local typename memory::element_type*;
  static constexpr bool valid = true;
  static memory pass(type value) { return memory(value); }
};

template <int I, typename... A> struct nth { using type = int; };
template <typename H, typename... T> struct nth<0, H, T...> { using type = H; };
template <int I, typename H, typename... T> struct nth<I, H, T...> : nth<I - 1, T...> {};

template <typename F> struct signature {
  static constexpr int arity = -1;
  static constexpr bool returns_void = false;
  template <int I> using arg = int;
};
template <typename R, typename... A> struct signature<R(A...)> {
  static constexpr int arity = sizeof...(A);
  static constexpr bool returns_void = __is_same(R, void);
  template <int I> using arg = typename remove_cv<typename nth<I, A...>::type>::type;
};

template <typename F, int I>
using param_of = param<typename signature<F>::template arg<I>>;
template <typename F, int I>
using entry_param_t = typename param_of<F, I>::type;

}  // namespace __plexus_sycl
