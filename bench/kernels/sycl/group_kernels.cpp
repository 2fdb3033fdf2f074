// tests/sycl's group kernels: work-group and sub-group collectives (broadcast, reduce,
// any/all/none, inclusive and exclusive scans, joint_reduce), work_group_static local
// memory at namespace and function scope, and sycl::half in scalars, vec and marray.
#include <sycl/sycl.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
namespace item = sycl::ext::oneapi::this_work_item;

syclexp::work_group_static<int[256]> reversed;  // namespace scope: one per work-group

// Per work-item, 10 results of collectives over its work-group.
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void work_group_collectives(const int* in, int* out) {
  const auto it = item::get_nd_item<1>();
  const auto g = it.get_group();
  const size_t i = it.get_global_id(0), local = it.get_local_id(0);
  const int x = in[i];
  int* mine = out + 10 * i;
  mine[0] = sycl::reduce_over_group(g, x, sycl::plus<>());
  mine[1] = sycl::group_broadcast(g, x, 3);
  mine[2] = sycl::inclusive_scan_over_group(g, x, sycl::plus<int>());
  mine[3] = sycl::exclusive_scan_over_group(g, x, sycl::plus<int>());
  mine[4] = sycl::any_of_group(g, x > 90) + 2 * sycl::all_of_group(g, x >= 0) +
            4 * sycl::none_of_group(g, x < 0);
  mine[5] = sycl::reduce_over_group(g, x, 50, sycl::maximum<int>());
  mine[6] = sycl::exclusive_scan_over_group(g, x, 7, sycl::plus<int>());
  mine[7] = sycl::joint_reduce(g, in + 4 * g.get_group_linear_id(),
                               in + 4 * g.get_group_linear_id() + 4, sycl::plus<int>());
  // Function scope: counted by every work-item of the group.
  static syclexp::work_group_static<int> arrivals;
  if (g.leader()) arrivals = 0;
  sycl::group_barrier(g);
  sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group> count(arrivals);
  count += 1;
  reversed[local] = x;
  sycl::group_barrier(g);
  mine[8] = arrivals;
  mine[9] = reversed[it.get_local_range(0) - 1 - local];
}

// Per work-item, 5 results of collectives over its sub-group, and its sub-group's size.
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void sub_group_collectives(const int* in, int* out) {
  const auto it = item::get_nd_item<1>();
  const sycl::sub_group sg = it.get_sub_group();
  const int x = in[it.get_global_id(0)];
  int* mine = out + 6 * it.get_global_id(0);
  mine[0] = sycl::reduce_over_group(sg, x, sycl::plus<int>());
  mine[1] = sycl::group_broadcast(sg, x);
  mine[2] = sycl::inclusive_scan_over_group(sg, x, sycl::plus<int>());
  mine[3] = sycl::exclusive_scan_over_group(sg, x, sycl::plus<int>());
  mine[4] = sycl::all_of_group(sg, x >= 0);
  mine[5] = int(sg.get_local_linear_range());
}

// A float reduction and a scan of doubles over the work-group (types other than int).
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void typed_collectives(const float* in, float* sums, double* scans) {
  const auto it = item::get_nd_item<1>();
  const size_t i = it.get_global_id(0);
  sums[i] = sycl::reduce_over_group(it.get_group(), in[i], sycl::plus<float>());
  scans[i] = sycl::inclusive_scan_over_group(it.get_group(), double(in[i]), sycl::multiplies<>());
}

// sycl::half: per element, 6 halves and 2 floats.
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void halves(const sycl::half* in, sycl::half* out, float* wide) {
  const size_t i = item::get_nd_item<1>().get_global_id(0);
  const sycl::half a = in[i];
  const sycl::half b = a * sycl::half(2.0f) + 1;  // half * half, then + int: half
  sycl::half* mine = out + 6 * i;
  mine[0] = b;
  mine[1] = a / sycl::half(3.0f);
  mine[2] = sycl::sqrt(sycl::fabs(a));
  sycl::half4 v(a, b, a, b);
  v = v * sycl::half(0.5f) - a;
  mine[3] = v[1];
  sycl::marray<sycl::half, 2> m(a, b);
  m += sycl::half(1.0f);
  mine[4] = m[0] * m[1];
  mine[5] = -a;
  const sycl::float4 f = sycl::half4(a, b, a, b).convert<float>();
  wide[2 * i] = f[0] + f[1] + (a < b ? 1.0f : 0.0f);
  wide[2 * i + 1] = a + 0.25f;  // half + float: float
}
