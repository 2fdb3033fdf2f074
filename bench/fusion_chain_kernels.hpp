// The element-wise chain both fusion benchmarks run (x -> affine -> square -> shift -> root
// -> y), and a tiny kernel for launch-overhead chains. OpenCL C source.
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
__kernel void tiny(__global int* out) { out[get_global_id(0)] += 1; }
)";

}  // namespace bench
