// SYCL free-function kernel sources of the SYCL tests: the seed's vec_add
// (runtime-compilation.txt, as it is there) and kernels of our own.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace plexus::test {

// The seed's example, verbatim: only the namespace alias it uses.
inline const char* const seed_vec_add_source = R"""(
#include <sycl/sycl.hpp>
namespace syclexp = sycl::ext::oneapi::experimental;
extern "C" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((
sycl::ext::oneapi::experimental::nd_range_kernel<1>))
void vec_add(float* in1, float* in2, float* out){
size_t id = sycl::ext::oneapi::this_work_item::get_nd_item<1>()
.get_global_linear_id();
out[id] = in1[id] + in2[id];
}
)""";

// Reductions with atomic_ref, local memory with barriers, a struct by value, sub-groups,
// math, vec and marray, a 2D nd-range, a single task, and a template kernel reached
// through registered names ("ops::scale<float>", "ops::scale<int>"):
// bench/kernels/sycl/own_kernels.cpp (plexus-bench-compile times it too).
inline std::string own_kernels_source() {
  const fs::path file = env_path("PLEXUS_SOURCE_DIR") / "bench" / "kernels" / "sycl" / "own_kernels.cpp";
  std::ifstream in(file);
  REQUIRE(in);  // PLEXUS_SOURCE_DIR is set by CTest
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace plexus::test
