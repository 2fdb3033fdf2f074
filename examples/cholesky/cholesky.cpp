// Tiled Cholesky factorisation A = L * L^T of an n x n symmetric positive definite matrix,
// as a task graph of POTRF/TRSM/SYRK/GEMM tile kernels over one buffer with per-tile
// accesses (the memory model finds the dependencies; an out-of-order queue lets the
// scheduler run independent tiles at once). Checks L * L^T against the input.
//   cholesky [--n N] [--tile T] [--device I] [--check R] [--shape S]
//     (T divides N; I indexes runtime.devices(); R rows of L * L^T checked, evenly spaced,
//      0: every row — the check costs n^3/6 multiply-adds on one thread, minutes at n 8192;
//      S: the tile kernels' shape, 0 from the device's type, 1 cpu, 2 gpu: cholesky_shape.hpp)
#include <chrono>
#include <cmath>
#include <iostream>
#include <vector>

#include "../common/example_options.hpp"
#include "cholesky_kernels.hpp"
#include "cholesky_shape.hpp"

namespace {

// Symmetric, diagonally dominant with a positive diagonal: positive definite.
std::vector<double> spd_matrix(std::size_t n) {
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t lo = std::min(i, j), hi = std::max(i, j);
      a[i * n + j] = i == j ? double(n) : double((lo * 7 + hi * 13) % 17) / 17.0;
    }
  return a;
}

// Largest |(L L^T)_ij - A_ij| over the lower triangle's rows checked (`rows` of them evenly
// spaced, first and last included; 0 or >= n: all), relative to max |A_ij| there.
double factor_error(const std::vector<double>& l, const std::vector<double>& a, std::size_t n,
                    std::size_t rows) {
  if (rows == 0 || rows >= n) rows = n;
  double worst = 0.0, scale = 0.0;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t i = rows == 1 ? n - 1 : r * (n - 1) / (rows - 1);
    for (std::size_t j = 0; j <= i; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k <= j; ++k) sum += l[i * n + k] * l[j * n + k];
      worst = std::max(worst, std::fabs(sum - a[i * n + j]));
      scale = std::max(scale, std::fabs(a[i * n + j]));
    }
  }
  return worst / scale;
}

}  // namespace

int main(int argc, char** argv) try {
  const examples::Options options(argc, argv, {{"n", 1024}, {"tile", 128}, {"device", 0}, {"check", 0}, {"shape", 0}});
  const std::size_t n = options["n"], tile = options["tile"];
  if (n % tile != 0) {
    std::cerr << "cholesky: --tile " << tile << " does not divide --n " << n << "\n";
    return 2;
  }
  const std::size_t tiles = n / tile;
  const std::vector<double> input = spd_matrix(n);

  plexus::Runtime runtime;
  plexus::Device& device = examples::pick_device(runtime, options["device"]);
  plexus::Queue queue = runtime.queue(device, plexus::QueueOrder::out_of_order);
  const examples::CholeskyLaunch launch = examples::cholesky_launch(
      device.info(), tile, static_cast<examples::CholeskyShape>(std::min<std::size_t>(options["shape"], 2)));
  const plexus::KernelBundle bundle = runtime.build(examples::cholesky_kernels, launch.options);
  const plexus::Kernel potrf = bundle.kernel("potrf"), trsm = bundle.kernel("trsm"),
                       syrk = bundle.kernel("syrk"), gemm = bundle.kernel("gemm");
  plexus::BufferOptions buffer_options;
  buffer_options.page_extent = {tile, tile, 1};  // one page per tile for page-based policies
  plexus::Buffer<double, 2> a(input.data(), plexus::Range{n, n}, buffer_options);

  const plexus::Range<2> tile_extent{tile, tile};
  const auto at = [&](std::size_t row, std::size_t col) {
    return plexus::Range<2>{row * tile, col * tile};
  };
  const int width = static_cast<int>(n);
  std::size_t tasks = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < tiles; ++k) {
    const int kk = static_cast<int>(k);
    queue.submit([&](plexus::Handler& h) {
      auto diagonal = a.access(h, plexus::read_write, tile_extent, at(k, k));
      h.parallel_for(potrf, launch.potrf, diagonal, width, kk);
    });
    ++tasks;
    for (std::size_t i = k + 1; i < tiles; ++i) {
      const int ii = static_cast<int>(i);
      queue.submit([&](plexus::Handler& h) {
        auto panel = a.access(h, plexus::read_write, tile_extent, at(i, k));
        a.access(h, plexus::read, tile_extent, at(k, k));
        h.parallel_for(trsm, launch.trsm, panel, width, ii, kk);
      });
      ++tasks;
    }
    for (std::size_t i = k + 1; i < tiles; ++i) {
      const int ii = static_cast<int>(i);
      queue.submit([&](plexus::Handler& h) {
        auto target = a.access(h, plexus::read_write, tile_extent, at(i, i));
        a.access(h, plexus::read, tile_extent, at(i, k));
        h.parallel_for(syrk, launch.update, target, width, ii, kk);
      });
      ++tasks;
      for (std::size_t j = k + 1; j < i; ++j) {
        const int jj = static_cast<int>(j);
        queue.submit([&](plexus::Handler& h) {
          auto target = a.access(h, plexus::read_write, tile_extent, at(i, j));
          a.access(h, plexus::read, tile_extent, at(i, k));
          a.access(h, plexus::read, tile_extent, at(j, k));
          h.parallel_for(gemm, launch.update, target, width, ii, jj, kk);
        });
        ++tasks;
      }
    }
  }
  std::vector<double> factor(n * n);
  a.copy_to(factor.data());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const double error = factor_error(factor, input, n, options["check"]);
  const double gflops = double(n) * double(n) * double(n) / 3.0 / seconds / 1e9;
  std::cout << "cholesky: n " << n << ", tile " << tile << " (" << tasks << " tasks) on "
            << examples::describe(runtime, device) << "\n"
            << "  time " << seconds * 1e3 << " ms, " << gflops << " GFLOP/s, bytes moved "
            << runtime.memory_report().bytes() << " in " << runtime.memory_report().copies()
            << " copies, relative error " << error << "\n";
  if (!(error < 1e-10)) {
    std::cerr << "cholesky: WRONG: L * L^T differs from A by " << error << " (relative)\n";
    return 1;
  }
  std::cout << "  verified" << std::endl;
  return 0;
} catch (const std::exception& e) {
  std::cerr << "cholesky: " << e.what() << "\n";
  return 1;
}
