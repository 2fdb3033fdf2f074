// The kernels of the command-graph tests (tests/graph, tests/backends/device_graph_test.cpp):
// axpb (x = x * a + b, two scalars to update between replays) and accumulate (y += x, a
// second buffer read and written), and the whole contents of a buffer.
#pragma once

#include <vector>

#include "plexus/buffer.hpp"

namespace plexus::test {

inline const char* const graph_test_source = R"(
__kernel void axpb(__global float* x, float a, float b) {
  size_t i = get_global_id(0);
  x[i] = x[i] * a + b;
}
__kernel void accumulate(__global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] += x[i];
}
)";

inline std::vector<float> contents(Buffer<float>& buffer) {
  std::vector<float> out(buffer.size());
  buffer.copy_to(out.data());
  return out;
}

}  // namespace plexus::test
