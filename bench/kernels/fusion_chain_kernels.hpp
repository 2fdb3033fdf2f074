// The element-wise chain the fusion benchmarks and the fusion engine's tests run (x ->
// affine -> square -> shift -> root -> y), as OpenCL C source: float kernels (one element per
// work-item) and float4 kernels (four per work-item: 16-byte loads and stores on GPUs), copy
// kernels of both widths (the copy ceiling a kernel reaches), and a tiny kernel for
// launch-overhead chains. Both widths come from one OpenCL C macro. Pure functions.
#pragma once

#include <string>

namespace plexus::kernels {

// FUSION_CHAIN(T, S): the chain over elements of type T, kernels affine##S, square##S,
// shift##S and root##S; FUSION_COPY(T, S): the kernel copy##S.
inline constexpr const char* fusion_chain_macros = R"(
#define FUSION_CHAIN(T, S)                                      \
  __kernel void affine##S(__global const T* x, __global T* t) { \
    size_t i = get_global_id(0);                                \
    t[i] = 2.0f * x[i] + 1.0f;                                  \
  }                                                             \
  __kernel void square##S(__global const T* a, __global T* b) { \
    size_t i = get_global_id(0);                                \
    b[i] = a[i] * a[i];                                         \
  }                                                             \
  __kernel void shift##S(__global const T* a, __global T* b) {  \
    size_t i = get_global_id(0);                                \
    b[i] = a[i] + 0.5f;                                         \
  }                                                             \
  __kernel void root##S(__global const T* a, __global T* y) {   \
    size_t i = get_global_id(0);                                \
    y[i] = sqrt(a[i]);                                          \
  }
#define FUSION_COPY(T, S)                                     \
  __kernel void copy##S(__global const T* a, __global T* b) { \
    size_t i = get_global_id(0);                              \
    b[i] = a[i];                                              \
  }
)";

// The chain's four float kernels only (affine, square, shift, root).
inline std::string fusion_chain_float_source() {
  return std::string(fusion_chain_macros) + "FUSION_CHAIN(float, )\n";
}

// Every kernel above: the chain and copy over float and over float4 (names ending in "4"),
// and tiny.
inline std::string fusion_chain_source() {
  return std::string(fusion_chain_macros) + R"(
FUSION_CHAIN(float, )
FUSION_COPY(float, )
FUSION_CHAIN(float4, 4)
FUSION_COPY(float4, 4)
__kernel void tiny(__global int* out) { out[get_global_id(0)] += 1; }
)";
}

// The chain's kernels in order (the float4 ones: the same names with "4" appended).
inline constexpr const char* fusion_chain_names[] = {"affine", "square", "shift", "root"};

}  // namespace plexus::kernels
