// OpenCL C kernels shared by the fusion tests (engine and queue protocol): scale and add_one
// (x -> t -> y), fill2d (a 2D update of y), as source text to concatenate. Constants only.
#pragma once

namespace plexus::test {

// scale(x, t, by): t = x * by; add_one(t, y): y = t + 1. One element per work-item.
inline constexpr const char* scale_add_one_kernels = R"(
__kernel void scale(__global const float* x, __global float* t, float by) {
  size_t i = get_global_id(0);
  t[i] = x[i] * by;
}
__kernel void add_one(__global const float* t, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = t[i] + 1.0f;
}
)";

// fill2d(y): y[z][x] += x + 100 z, over a 2D range whose first dimension is a row.
inline constexpr const char* fill2d_kernel = R"(
__kernel void fill2d(__global float* y) {
  size_t x = get_global_id(0), z = get_global_id(1);
  y[z * get_global_size(0) + x] += (float)(x + 100 * z);
}
)";

}  // namespace plexus::test
