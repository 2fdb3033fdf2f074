// Issue 15 item 4: a 2D stencil with barriers and two __local arguments (a haloed tile and
// a row reduction), launched repeatedly with four work-group shapes, each sweep reading the
// previous one's output, after another program (a local-memory reduction) has run on the
// same device, equals a CPU reference after every sweep: on PoCL (the SPIR bitcode the
// opencl backend gives it) and on the host backend. PoCL's case is skipped, saying why,
// without an OpenCL device.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "runtime_test_support.hpp"

namespace {

const char* const first_program = R"(
__kernel void group_sums(__global const int* in, __global int* out, __local int* part) {
  int l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = part[0];
}
)";

const char* const stencil_program = R"(
// 5-point average over a (local + 2)^2 tile with its halo; `rows` gets each row's sum by a
// tree reduction (barriers in a loop), and the result adds 0 times it (it must be right).
__kernel void stencil(__global const float* in, __global float* out, __local float* tile,
                      __local float* rows, int w, int h) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int lw = get_local_size(0), lh = get_local_size(1), tw = lw + 2;
  for (int ty = ly; ty < lh + 2; ty += lh)
    for (int tx = lx; tx < tw; tx += lw) {
      const int gx = get_group_id(0) * lw + tx - 1, gy = get_group_id(1) * lh + ty - 1;
      tile[ty * tw + tx] = gx >= 0 && gx < w && gy >= 0 && gy < h ? in[gy * w + gx] : 0.0f;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  const float v = 0.2f * (tile[(ly + 1) * tw + lx + 1] + tile[ly * tw + lx + 1] +
                          tile[(ly + 2) * tw + lx + 1] + tile[(ly + 1) * tw + lx] +
                          tile[(ly + 1) * tw + lx + 2]);
  rows[ly * lw + lx] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lw / 2; s > 0; s /= 2) {
    if (lx < s) rows[ly * lw + lx] += rows[ly * lw + lx + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[y * w + x] = v + 0.0f * rows[ly * lw];
}
)";

std::vector<float> sweep_on_host(const std::vector<float>& in, int w, int h) {
  auto at = [&](int x, int y) { return x >= 0 && x < w && y >= 0 && y < h ? in[y * w + x] : 0.0f; };
  std::vector<float> out(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      out[y * w + x] = 0.2f * (at(x, y) + at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y));
  return out;
}

}  // namespace

TEST_CASE("a stencil with barriers and two __local arguments, after another program, "
          "equals the CPU reference at every sweep on PoCL and on the host backend",
          "[runtime][local]") {
  const char* const backend = GENERATE("opencl", "host");
  INFO("backend " << backend);
  auto rt = plexus::test::make_runtime({"inorder", "exact"}, std::string("\"") + backend + "\"");
  if (rt->devices().empty()) {
    WARN("skipped on " << backend << ": no device (for opencl: no OpenCL platform or PoCL)");
    return;
  }
  plexus::Queue q = rt->queue(*rt->devices().front());
  {  // another program first
    plexus::KernelBundle other = rt->build(first_program);
    std::vector<int> ones(1024, 1);
    plexus::Buffer<int> in(ones.data(), ones.size()), sums(plexus::Range{16});
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(other.kernel("group_sums"), plexus::nd_range(plexus::Range{1024}, plexus::Range{64}),
                     in.access(h, plexus::read), sums.access(h, plexus::discard_write),
                     plexus::local<int>(64));
    });
    auto view = sums.host_access(plexus::read);
    for (std::size_t g = 0; g < 16; ++g) REQUIRE(view[g] == 64);
  }
  plexus::KernelBundle bundle = rt->build(stencil_program);
  const int w = 128, h = 64;
  std::vector<float> grid(w * h);
  for (int i = 0; i < w * h; ++i) grid[i] = static_cast<float>((i * 37) % 101);
  plexus::Buffer<float, 2> a(grid.data(), plexus::Range<2>{std::size_t(h), std::size_t(w)});
  plexus::Buffer<float, 2> b(plexus::Range<2>{std::size_t(h), std::size_t(w)});
  const std::size_t shapes[4][2] = {{16, 16}, {32, 8}, {8, 8}, {16, 4}};  // (x, y)
  std::vector<float> expected = grid;
  for (int sweep = 0; sweep < 12; ++sweep) {
    plexus::Buffer<float, 2>& in = sweep % 2 == 0 ? a : b;
    plexus::Buffer<float, 2>& out = sweep % 2 == 0 ? b : a;
    const std::size_t lx = shapes[sweep % 4][0], ly = shapes[sweep % 4][1];
    // Dimension 0 is x here (get_global_id(0)): the ranges are (x, y).
    q.submit([&](plexus::Handler& handler) {
      handler.parallel_for(bundle.kernel("stencil"),
                           plexus::nd_range(plexus::Range{std::size_t(w), std::size_t(h)},
                                            plexus::Range{lx, ly}),
                           in.access(handler, plexus::read), out.access(handler, plexus::discard_write),
                           plexus::local<float>((lx + 2) * (ly + 2)), plexus::local<float>(lx * ly), w, h);
    });
    expected = sweep_on_host(expected, w, h);
    auto view = out.host_access(plexus::read);
    int wrong = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const float got = view(std::size_t(y), std::size_t(x)), want = expected[y * w + x];
        if (std::fabs(got - want) > 1e-4f * std::fabs(want) + 1e-4f) {
          if (wrong++ < 3) UNSCOPED_INFO("sweep " << sweep << " (" << lx << "x" << ly << "): (" << x << ", " << y << ") = " << got << ", want " << want);
        }
      }
    INFO("sweep " << sweep << " with work-groups of " << lx << "x" << ly);
    REQUIRE(wrong == 0);
  }
}
