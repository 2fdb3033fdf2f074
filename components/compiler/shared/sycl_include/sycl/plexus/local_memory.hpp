// Work-group local memory for free-function kernels (sycl_ext_oneapi_work_group_memory): a
// kernel parameter `syclexp::work_group_memory<T>` is one allocation per work-group,
// shared by its work-items. The generated entry point takes it as a __local pointer, so a
// launch passes the bytes it needs (plexus::local<Element>(count) through Plexus's API).
// T is a type (`int`), a sized array (`float[64]`) or an unsized one (`float[]`).
#pragma once

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

}  // namespace ext::oneapi::experimental
}  // namespace sycl
