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

}  // namespace plexus::test
