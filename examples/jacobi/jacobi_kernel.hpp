// The Jacobi example's sweep kernel (OpenCL C), shared with plexus-bench-cuda, which times
// the same kernel in a raw CUDA graph: the floor of what automatic replay can reach.
// One sweep over the interior of an n x n grid: global range (n - 2) x (n - 2), no offset.
#pragma once

namespace examples {

inline const char* const jacobi_source = R"(
__kernel void jacobi(__global const float* in, __global float* out, int n) {
  const size_t i = get_global_id(0) + 1, j = get_global_id(1) + 1;  // the interior
  out[i * n + j] = 0.25f * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                            in[i * n + j - 1] + in[i * n + j + 1]);
}
)";

}  // namespace examples
