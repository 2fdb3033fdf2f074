// Work-group local memory for free-function kernels, as the two oneAPI extensions spell it:
//
// - sycl_ext_oneapi_work_group_memory: a kernel parameter `syclexp::work_group_memory<T>` is
//   one allocation per work-group, shared by its work-items. The generated entry point takes
//   it as a __local pointer, so a launch passes the bytes it needs
//   (plexus::local<Element>(count) through Plexus's API). T is a type (`int`), a sized
//   array (`float[64]`) or an unsized one (`float[]`).
// - sycl_ext_oneapi_work_group_static: a variable `syclexp::work_group_static<T>` at
//   namespace scope or `static` in a function is one T per work-group (T: a type or a sized
//   array), with no launch argument. C++ for OpenCL allows __local variables only in
//   kernels, so such a variable is compiled as a program-scope (global) variable and moved
//   into local memory on the frontend's module (SyclSource::finish: every global of this
//   class's type; its accessors pass the address through __plexus_sycl_work_group_static,
//   an opaque identity that keeps the optimiser from rewriting the variable before then).
//   One declared with automatic storage (a plain local variable) is a build error there.
// - sycl_ext_oneapi_work_group_scratch_memory: get_work_group_scratch_memory() is the
//   work-group's scratch, its size given at launch. A kernel that calls it (itself or through
//   the functions it calls) gets a last, hidden __local parameter, `work_group_scratch_size`
//   (SyclSource::finish, sycl_work_group_scratch.hpp), so a launch passes the bytes last:
//   plexus::work_group_scratch_size(bytes) through Plexus's API.
#pragma once

// The work-group scratch of the calling kernel (replaced by SyclSource::finish).
extern "C" __local void* __plexus_sycl_work_group_scratch(void) __attribute__((const));

// The identity on the address of a work_group_static (replaced by SyclSource::finish).
extern "C" void* __plexus_sycl_work_group_static(void* address) __attribute__((const));

namespace sycl {
namespace ext::oneapi::experimental {

namespace detail {
template <typename T> struct element { using type = T; };
template <typename T> struct element<T[]> { using type = T; };
template <typename T, size_t N> struct element<T[N]> { using type = T; };
}  // namespace detail

template <typename DataT, typename PropertyListT = properties<>>
class work_group_memory {
 public:
  using value_type = DataT;
  using element_type = typename detail::element<DataT>::type;

  // What the generated entry point passes: the work-group's allocation.
  explicit work_group_memory(__local element_type* data) : data_(data) {}

  element_type* get_pointer() const { return data_; }
  element_type* get_multi_ptr() const { return data_; }
  element_type& operator[](size_t i) const { return data_[i]; }
  // For a DataT that is not an array: the one value.
  operator element_type&() const { return *data_; }
  const work_group_memory& operator=(const element_type& value) const {
    *data_ = value;
    return *this;
  }

 private:
  element_type* data_;
};

template <typename T>
class work_group_static final {
  static_assert(!__is_same(T, typename detail::element<T>::type[]),
                "work_group_static takes a type or a sized array (an unsized array needs "
                "work_group_memory)");

 public:
  work_group_static() = default;
  work_group_static(const work_group_static&) = delete;
  work_group_static& operator=(const work_group_static&) = delete;

  operator T&() const { return *get(); }
  template <typename U = T, typename = __enable_if_t<!__is_array(U)>>
  const work_group_static& operator=(const T& value) const {
    *get() = value;
    return *this;
  }
  T* operator&() const { return get(); }
  T* get_multi_ptr() const { return get(); }
  // Element access for arrays (DPC++ gives it through T&).
  template <typename U = T, typename = __enable_if_t<__is_array(U)>>
  typename detail::element<U>::type& operator[](size_t i) const {
    return (*get())[i];
  }

 private:
  T* get() const {
    return static_cast<T*>(__plexus_sycl_work_group_static(const_cast<T*>(&value_)));
  }
  T value_;
};

// The work-group's scratch memory: as many bytes as the launch gave, aligned as any type.
inline void* get_work_group_scratch_memory() { return __plexus_sycl_work_group_scratch(); }

}  // namespace ext::oneapi::experimental
}  // namespace sycl
