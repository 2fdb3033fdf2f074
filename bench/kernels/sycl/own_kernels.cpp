// tests/sycl's kernels: atomic_ref reductions, local memory and barriers, a struct by
// value, sub-groups, math, vec and marray, 2D, a single task (the template is not built:
// no registered names here).
#include <sycl/sycl.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
namespace item = sycl::ext::oneapi::this_work_item;

struct Affine {
  float scale;
  float offset;
  int odd_only;
};

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void reduce(const int* in, int* totals, float* float_total) {
  const size_t i = item::get_nd_item<1>().get_global_id(0);
  sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device,
                   sycl::access::address_space::global_space> sum(totals[0]);
  sum.fetch_add(in[i]);
  sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> largest(totals[1]);
  largest.fetch_max(in[i]);
  sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> halves(*float_total);
  halves += 0.5f;
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void reverse_in_group(const int* in, int* out, syclexp::work_group_memory<int[]> scratch) {
  const auto it = item::get_nd_item<1>();
  const auto group = item::get_work_group<1>();
  const size_t local = it.get_local_id(0), size = it.get_local_range(0);
  scratch[local] = in[it.get_global_id(0)];
  sycl::group_barrier(group);
  out[it.get_global_id(0)] = scratch[size - 1 - local] + 1000 * int(group.get_group_linear_id());
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void affine(Affine a, float* data) {
  const size_t i = item::get_nd_item<1>().get_global_linear_id();
  if (!a.odd_only || i % 2 == 1) data[i] = data[i] * a.scale + a.offset;
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void sub_group_sum(const int* in, int* total, int* sizes) {
  const auto it = item::get_nd_item<1>();
  const sycl::sub_group sg = item::get_sub_group();
  const int partial = sycl::reduce_over_group(sg, in[it.get_global_id(0)], sycl::plus<int>());
  if (sg.leader())
    sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device>(*total) += partial;
  if (it.get_global_id(0) == 0) {
    sizes[0] = int(sg.get_max_local_range()[0]);
    sizes[1] = int(sg.get_group_range()[0]);
  }
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void math(const float* x, float* out) {
  const size_t i = item::get_nd_item<1>().get_global_id(0);
  const float v = x[i];
  sycl::float4 four(v, 1.0f, 2.0f, 3.0f);
  four = four * 2.0f + sycl::float4(1.0f);
  sycl::marray<float, 3> m(v, v, v);
  m += 1.0f;
  out[8 * i + 0] = sycl::sqrt(v);
  out[8 * i + 1] = sycl::sin(v);
  out[8 * i + 2] = sycl::fma(v, 2.0f, 1.0f);
  out[8 * i + 3] = sycl::clamp(v, 0.25f, 0.75f);
  out[8 * i + 4] = sycl::exp(v) + sycl::log(v + 1.0f);
  out[8 * i + 5] = four.x() + four[3];
  out[8 * i + 6] = m[0] + m[2];
  out[8 * i + 7] = sycl::fmax(sycl::pow(v, 2.0f), sycl::fabs(-v));
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<2>))
void index_2d(int* out) {
  const auto it = item::get_nd_item<2>();
  out[it.get_global_linear_id()] = int(it.get_global_id(0) * 100 + it.get_global_id(1));
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::single_task_kernel))
void single(int* out) { out[0] = 42; }

namespace ops {
template <typename T>
SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void scale(T* data, T factor) {
  const size_t i = item::get_nd_item<1>().get_global_id(0);
  data[i] *= factor;
}
}  // namespace ops
