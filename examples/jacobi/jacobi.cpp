// 2D Jacobi stencil: `iterations` sweeps over an n x n grid with fixed boundaries, ping-
// ponging between two buffers; each sweep writes only the interior (a sub-range access), so
// the boundary never moves. Checked against the same sweeps on the host.
//   jacobi [--n GRID] [--iterations K] [--device I]
#include <chrono>
#include <cmath>
#include <iostream>
#include <vector>

#include "../common/example_options.hpp"
#include "jacobi_kernel.hpp"

namespace {

std::vector<float> initial_grid(std::size_t n) {
  std::vector<float> grid(n * n, 0.0f);
  for (std::size_t k = 0; k < n; ++k) {
    grid[k] = 1.0f;                                     // top edge hot
    grid[k * n] = static_cast<float>(k) / static_cast<float>(n);  // left edge ramp
  }
  return grid;
}

void sweep_on_host(const std::vector<float>& in, std::vector<float>& out, std::size_t n) {
  for (std::size_t i = 1; i + 1 < n; ++i)
    for (std::size_t j = 1; j + 1 < n; ++j)
      out[i * n + j] = 0.25f * (in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] +
                                in[i * n + j + 1]);
}

}  // namespace

int main(int argc, char** argv) try {
  const examples::Options options(argc, argv, {{"n", 512}, {"iterations", 100}, {"device", 0}});
  const std::size_t n = options["n"], iterations = options["iterations"];
  if (n < 3) {
    std::cerr << "jacobi: --n must be at least 3\n";
    return 2;
  }
  const std::vector<float> grid = initial_grid(n);

  plexus::Runtime runtime;
  plexus::Queue queue = runtime.queue(examples::pick_device(runtime, options["device"]));
  plexus::Kernel kernel = runtime.build(examples::jacobi_source).kernel("jacobi");
  plexus::Buffer<float, 2> a(grid.data(), plexus::Range{n, n}), b(grid.data(), plexus::Range{n, n});
  plexus::NdRange interior;
  interior.dimensions = 2;
  interior.global = {n - 2, n - 2, 1};  // no global offset: PTX from libclc ignores it
  const plexus::Range<2> inner{n - 2, n - 2}, one{1, 1};
  const int width = static_cast<int>(n);
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < iterations; ++k) {
    plexus::Buffer<float, 2>& in = k % 2 == 0 ? a : b;
    plexus::Buffer<float, 2>& out = k % 2 == 0 ? b : a;
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, interior, in.access(h, plexus::read),
                     out.access(h, plexus::discard_write, inner, one), width);
    });
  }
  std::vector<float> result(n * n);
  (iterations % 2 == 0 ? a : b).copy_to(result.data());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::vector<float> x = grid, y = grid;
  for (std::size_t k = 0; k < iterations; ++k) {
    sweep_on_host(x, y, n);
    std::swap(x, y);
  }
  double worst = 0.0;
  for (std::size_t i = 0; i < n * n; ++i) worst = std::max(worst, double(std::fabs(result[i] - x[i])));
  if (!(worst <= 1e-5)) {
    std::cerr << "jacobi: WRONG: largest difference from the host sweeps is " << worst << "\n";
    return 1;
  }
  const double updates = double(n - 2) * double(n - 2) * double(iterations);
  std::cout << "jacobi: " << n << "x" << n << ", " << iterations << " sweeps on "
            << examples::describe(runtime, queue.device()) << " in " << seconds * 1e3 << " ms ("
            << updates / seconds / 1e6 << " M updates/s), bytes moved "
            << runtime.memory_report().bytes() << ": verified" << std::endl;
  return 0;
} catch (const std::exception& e) {
  std::cerr << "jacobi: " << e.what() << "\n";
  return 1;
}
