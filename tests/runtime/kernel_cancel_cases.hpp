// Kernels the cancellable-kernel tests build (tests/runtime/kernel_cancel_test.cpp on PoCL,
// tests/compiler_cache/cancel_compile_test.cpp at the compiler): an element-wise kernel,
// one with barriers and __local memory (a work-group sum, 3 arguments), and one with a
// private array.
#pragma once

namespace plexus::test::cancel {

inline const char* const kernels = R"(
__kernel void scale(__global const float* in, __global float* out, float factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor + (float)i;
}
__kernel void group_sum(__global const int* in, __global int* out, __local int* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
    if (l < step) scratch[l] += scratch[l + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}
__kernel void table(__global int* out) {
  int t[4] = {1, 2, 3, 4};
  out[get_global_id(0)] = t[get_global_id(0) % 4];
}
)";

}  // namespace plexus::test::cancel
