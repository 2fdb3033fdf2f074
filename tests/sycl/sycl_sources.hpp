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

}  // namespace plexus::test
