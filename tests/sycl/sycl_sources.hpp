// SYCL free-function kernel sources of the SYCL tests: the seed's vec_add
// (runtime-compilation.txt, as it is there) and kernels of our own.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace plexus::test {

// The text of bench/kernels/sycl/NAME (PLEXUS_SOURCE_DIR is set by CTest).
inline std::string sycl_source_file(const std::string& name) {
  const fs::path file = env_path("PLEXUS_SOURCE_DIR") / "bench" / "kernels" / "sycl" / name;
  std::ifstream in(file);
  INFO(file);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The seed's example (runtime-compilation.txt) verbatim, with only the namespace alias it
// uses: bench/kernels/sycl/vec_add.cpp.
inline std::string seed_vec_add_source() { return sycl_source_file("vec_add.cpp"); }

// Reductions with atomic_ref, local memory with barriers, a struct by value, sub-groups,
// math, vec and marray, a 2D nd-range, a single task, and a template kernel reached
// through registered names ("ops::scale<float>", "ops::scale<int>"):
// bench/kernels/sycl/own_kernels.cpp (plexus-bench-compile times it too).
inline std::string own_kernels_source() { return sycl_source_file("own_kernels.cpp"); }

// Work-group and sub-group collectives, work_group_static local memory and sycl::half:
// bench/kernels/sycl/group_kernels.cpp.
inline std::string group_kernels_source() { return sycl_source_file("group_kernels.cpp"); }

// A kernel with two plain C++ errors: at line 5, column 7 (a string for an int) and at
// line 6 (no sycl::sqrt for a pointer, whose candidates are in the headers).
inline std::string plain_cpp_error_source() {
  return "#include <sycl/sycl.hpp>\n"                                                // 1
         "namespace syclexp = sycl::ext::oneapi::experimental;\n"                    // 2
         "extern \"C\" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))\n"
         "void k(int* out) {\n"                                                      // 4
         "  int value = \"text\";\n"                                                 // 5
         "  out[0] = sycl::sqrt(out);\n"                                             // 6
         "}\n";
}

// get_work_group_scratch_memory, through a helper function and in the kernel: scratch_sums
// (and no_scratch, a kernel without it), for sycl_scratch_test.cpp and sycl_compile_test.cpp.
// Each work-group's sum (in ints) and its largest value (in doubles after the ints): the
// scratch is the work-group's own and as large as the launch said.
inline const char* const scratch_source = R"(
#include <sycl/sycl.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;

static int group_sum(const sycl::nd_item<1>& it, int x) {
  int* partial = static_cast<int*>(syclexp::get_work_group_scratch_memory());
  const size_t local = it.get_local_id(0), n = it.get_local_range(0);
  partial[local] = x;
  sycl::group_barrier(it.get_group());
  if (local == 0)  // no barrier in a loop: PoCL compiles those slowly
    for (size_t i = 1; i < n; ++i) partial[0] += partial[i];
  sycl::group_barrier(it.get_group());
  const int sum = partial[0];
  sycl::group_barrier(it.get_group());
  return sum;
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void scratch_sums(const int* in, int* sums, double* largest) {
  const auto it = syclexp::this_work_item::get_nd_item<1>();
  const size_t local = it.get_local_id(0), n = it.get_local_range(0);
  const int x = in[it.get_global_id(0)];
  const int sum = group_sum(it, x);
  double* wide = reinterpret_cast<double*>(
      static_cast<char*>(syclexp::get_work_group_scratch_memory()) + n * sizeof(int));
  wide[local] = x;
  sycl::group_barrier(it.get_group());
  if (local == 0) {
    double best = wide[0];
    for (size_t i = 1; i < n; ++i) best = sycl::fmax(best, wide[i]);
    sums[it.get_group(0)] = sum;
    largest[it.get_group(0)] = best;
  }
}

extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void no_scratch(int* out) { out[syclexp::this_work_item::get_nd_item<1>().get_global_id(0)] = 1; }
)";

// Group collectives over a struct value type with operations of the kernels' own (an
// affine map's composition, which does not commute, so the order of the work-items
// matters; the first largest value with its index), and over int in work-groups of any
// size (no local array sized by the work-group): for sycl_groups_test.cpp. The host side
// mirrors the two structs (plexus::test::Affine, ArgMax).
inline const char* const struct_collectives_source = R"(
#include <sycl/sycl.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
namespace item = sycl::ext::oneapi::this_work_item;

struct affine { uint a, b; };  // x -> a * x + b
struct then {                  // f, then g
  affine operator()(const affine& f, const affine& g) const {
    return {f.a * g.a, g.a * f.b + g.b};
  }
};
struct arg_max { float value; int index; };
struct first_max {
  arg_max operator()(const arg_max& x, const arg_max& y) const {
    if (y.value > x.value || (y.value == x.value && y.index < x.index)) return y;
    return x;
  }
};

// Per work-item 7 affine maps and 4 arg_max over its work-group; `maps` holds one per
// work-item, the joint range is the group's first 5.
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void struct_collectives(const affine* maps, const float* values, affine* out, arg_max* best) {
  const auto it = item::get_nd_item<1>();
  const auto g = it.get_group();
  const size_t i = it.get_global_id(0), base = i - it.get_local_id(0);
  const affine f = maps[i];
  affine* mine = out + 7 * i;
  mine[0] = sycl::reduce_over_group(g, f, then());
  mine[1] = sycl::inclusive_scan_over_group(g, f, then());
  mine[2] = sycl::exclusive_scan_over_group(g, f, affine{3, 1}, then());
  mine[3] = sycl::inclusive_scan_over_group(g, f, then(), affine{5, 2});
  mine[4] = sycl::joint_reduce(g, maps + base, maps + base + 5, affine{7, 3}, then());
  mine[5] = sycl::group_broadcast(g, f, 2);
  const arg_max x = {values[i], int(it.get_local_id(0))};
  arg_max* top = best + 4 * i;
  top[0] = sycl::reduce_over_group(g, x, first_max());
  top[1] = sycl::reduce_over_group(g, x, arg_max{60.0f, -1}, first_max());
  top[2] = sycl::exclusive_scan_over_group(g, x, arg_max{-1.0f, -1}, first_max());
  top[3] = sycl::inclusive_scan_over_group(g, x, first_max());
  mine[6] = sycl::joint_reduce(g, maps + base, maps + base, affine{9, 4}, then());  // the init
}

// Per work-item 8 results of int collectives over its work-group, of any size.
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((syclexp::nd_range_kernel<1>))
void int_collectives(const int* in, int* out) {
  const auto it = item::get_nd_item<1>();
  const auto g = it.get_group();
  const size_t i = it.get_global_id(0), size = it.get_local_range(0), base = i - it.get_local_id(0);
  const int x = in[i];
  int* mine = out + 8 * i;
  mine[0] = sycl::reduce_over_group(g, x, sycl::plus<int>());
  mine[1] = sycl::group_broadcast(g, x, size - 2);
  mine[2] = sycl::inclusive_scan_over_group(g, x, sycl::plus<int>());
  mine[3] = sycl::exclusive_scan_over_group(g, x, 7, sycl::plus<int>());
  mine[4] = sycl::any_of_group(g, x > 99) + 2 * sycl::all_of_group(g, x >= 0) +
            4 * sycl::none_of_group(g, x == 100);
  mine[5] = sycl::reduce_over_group(g, x, 50, sycl::maximum<int>());
  mine[6] = sycl::joint_reduce(g, in + base, in + base + size, sycl::plus<int>());
  mine[7] = sycl::joint_any_of(g, in + base, in + base + size, [](int v) { return v == 100; });
}
)";

}  // namespace plexus::test
