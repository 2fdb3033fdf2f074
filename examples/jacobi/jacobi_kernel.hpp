// The Jacobi example's sweep kernel (OpenCL C), shared with plexus-bench-cuda, which times
// the same kernel in a raw CUDA graph: the floor of what automatic replay can reach.
// One sweep over the interior of an n x n grid: global range (n - 2) x (n - 2), no offset.
// Dimension 0 is the column (j), the contiguous one: OpenCL's dimension 0 varies fastest
// between neighbouring work-items (on CUDA, between the lanes of a warp), so neighbouring
// work-items touch neighbouring floats and a warp's loads coalesce. (With the row in dimension
// 0, each lane of a warp read another row: the sweep took 3.2 us on an H100 at 256^2.)
#pragma once

namespace examples {

inline const char* const jacobi_source = R"(
__kernel void jacobi(__global const float* in, __global float* out, int n) {
  const size_t j = get_global_id(0) + 1, i = get_global_id(1) + 1;  // the interior
  out[i * n + j] = 0.25f * (in[(i - 1) * n + j] + in[(i + 1) * n + j] +
                            in[i * n + j - 1] + in[i * n + j + 1]);
}
)";

}  // namespace examples
