// The element-wise chain the fusion benchmarks run (x -> affine -> square -> shift -> root
// -> y), as float kernels (one element per work-item) and float4 kernels (four per
// work-item: 16-byte loads and stores on GPUs), copy kernels of both widths (the copy
// ceiling a kernel reaches), and a tiny kernel for launch-overhead chains. OpenCL C source.
#pragma once

namespace bench {

inline constexpr const char* fusion_chain_source = R"(
__kernel void affine(__global const float* x, __global float* t) {
  size_t i = get_global_id(0);
  t[i] = 2.0f * x[i] + 1.0f;
}
__kernel void square(__global const float* a, __global float* b) {
  size_t i = get_global_id(0);
  b[i] = a[i] * a[i];
}
__kernel void shift(__global const float* a, __global float* b) {
  size_t i = get_global_id(0);
  b[i] = a[i] + 0.5f;
}
__kernel void root(__global const float* a, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = sqrt(a[i]);
}
__kernel void copy(__global const float* a, __global float* b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}
__kernel void affine4(__global const float4* x, __global float4* t) {
  size_t i = get_global_id(0);
  t[i] = 2.0f * x[i] + 1.0f;
}
__kernel void square4(__global const float4* a, __global float4* b) {
  size_t i = get_global_id(0);
  b[i] = a[i] * a[i];
}
__kernel void shift4(__global const float4* a, __global float4* b) {
  size_t i = get_global_id(0);
  b[i] = a[i] + 0.5f;
}
__kernel void root4(__global const float4* a, __global float4* y) {
  size_t i = get_global_id(0);
  y[i] = sqrt(a[i]);
}
__kernel void copy4(__global const float4* a, __global float4* b) {
  size_t i = get_global_id(0);
  b[i] = a[i];
}
__kernel void tiny(__global int* out) { out[get_global_id(0)] += 1; }
)";

// The chain's kernels in order (the float4 ones: the same names with "4" appended).
inline constexpr const char* fusion_chain_names[] = {"affine", "square", "shift", "root"};

}  // namespace bench
