// Kernel properties of free-function kernels (sycl_ext_oneapi_free_function_kernels):
// SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<N>)) and
// ((syclexp::single_task_kernel)). The compilers find kernels by the annotation the macro
// leaves (the property's text, checked there) and generate their entry points.
#pragma once

#define SYCL_EXT_ONEAPI_FUNCTION_PROPERTY(...) \
  __attribute__((annotate("__plexus_sycl_kernel", #__VA_ARGS__)))
#define SYCL_EXT_ONEAPI_FREE_FUNCTION_KERNELS 1
#define SYCL_EXT_ONEAPI_KERNEL_COMPILER 1
#define SYCL_EXT_ONEAPI_WORK_GROUP_MEMORY 1

namespace sycl {
namespace ext::oneapi::experimental {

template <int Dimensions>
struct nd_range_kernel_key {
  static_assert(Dimensions >= 1 && Dimensions <= 3, "nd_range_kernel takes 1, 2 or 3 dimensions");
};
struct single_task_kernel_key {};

template <int Dimensions>
inline constexpr nd_range_kernel_key<Dimensions> nd_range_kernel{};
inline constexpr single_task_kernel_key single_task_kernel{};

template <typename... Properties>
struct properties {};

}  // namespace ext::oneapi::experimental
}  // namespace sycl
