// Tiled Cholesky factorisation A = L * L^T of an n x n symmetric positive definite matrix,
// as a task graph of POTRF/TRSM/SYRK/GEMM tile tasks over one buffer with per-tile accesses
// (tile_graph.hpp). Checks L * L^T against the input.
//   cholesky [--n N] [--tile T] [--device I] [--check R] [--kernels opencl|blas] [--shape S]
//            [--precision double|single] [--indefinite K]
//     --kernels opencl (default): the demo's OpenCL C tile kernels, on any device; S: their
//       shape, 0 from the device's type, 1 cpu, 2 gpu (cholesky_shape.hpp);
//     --kernels blas: native tasks over vendor libraries: OpenBLAS/LAPACKE on host devices,
//       cuBLAS/cuSOLVER on CUDA devices (loaded at run time).
//     --precision double (default) or single: the matrix's elements are doubles or floats
//       (the kernels built for float; blas: the S routines, SPOTRF, STRSM, SSYRK, SGEMM,
//       instead of the D ones); the check's bound on the relative error is 1e-10 in double,
//       1e-5 in single (matrix.hpp).
//     T divides N; 0 (default) picks it: 128 for opencl, for blas 256 on a CPU and 1024 on
//       a GPU (halved until it divides N). I indexes runtime.devices(). R rows of L * L^T
//       checked, evenly spaced (default 256: first, last and between; a check of every row
//       costs n^3/6 multiply-adds on one thread, about a minute at n 8192), 0: every row.
//     K >= 1: element (K-1, K-1) of the input made -1, so that the leading minor of order K
//       is the first that is not positive definite: the POTRF of tile ((K-1)/T, (K-1)/T)
//       fails (--kernels blas: its task fails, naming the tile, on whichever device or node
//       ran it; opencl: the check finds the factor wrong). Shows how a failure is reported.
// Exit status: 0 verified, 1 wrong or failed, 2 bad options, 77 nothing to run on (no
// device, or the device cannot run the chosen kernels: the message says why).
#include <chrono>
#include <iostream>
#include <memory>
#include <vector>

#include "../common/example_options.hpp"
#include "matrix.hpp"
#include "precision.hpp"
#include "tile_kernels_choice.hpp"

namespace {

// Factors the demo's matrix of T on `device` with the kernels `options` name, checks and
// reports it; the program's exit status.
template <class T>
int factor(plexus::Runtime& runtime, plexus::Device& device, const examples::Options& options,
           const cholesky::TileLayout& layout) {
  const std::size_t n = layout.n, tile = layout.tile;
  const std::string& kind = options.word("kernels");
  std::vector<T> input = cholesky::spd_matrix<T>(n);
  if (const std::size_t k = options["indefinite"]; k >= 1) input[(k - 1) * n + k - 1] = T(-1);
  std::unique_ptr<cholesky::TileKernels<T>> kernels;
  try {
    kernels = cholesky::make_tile_kernels<T>(kind, runtime, device, layout, options["shape"]);
  } catch (const plexus::error& e) {
    if (e.category() != plexus::error_category::unsupported) throw;
    std::cerr << "cholesky: " << e.what() << "\n";
    return 77;
  }

  plexus::Queue queue = runtime.queue(device, plexus::QueueOrder::out_of_order);
  plexus::BufferOptions buffer_options;
  buffer_options.page_extent = {tile, tile, 1};  // one page per tile for page-based policies
  plexus::Buffer<T, 2> a(input.data(), plexus::Range{n, n}, buffer_options);

  const auto start = std::chrono::steady_clock::now();
  const std::size_t tasks = cholesky::submit_factorisation(queue, a, layout, *kernels);
  std::vector<T> factor(n * n);
  a.copy_to(factor.data());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const double error = cholesky::factor_error(factor, input, n, options["check"]);
  const double gflops = double(n) * double(n) * double(n) / 3.0 / seconds / 1e9;
  std::cout << "cholesky: n " << n << ", tile " << tile << ", "
            << cholesky::name(cholesky::precision_of<T>) << " precision (" << tasks
            << " tasks, kernels " << kernels->describe() << ") on "
            << examples::describe(runtime, device) << "\n"
            << "  time " << seconds * 1e3 << " ms, " << gflops << " GFLOP/s, bytes moved "
            << runtime.memory_report().bytes() << " in " << runtime.memory_report().copies()
            << " copies, relative error " << error << "\n";
  if (!(error < cholesky::error_bound<T>())) {
    std::cerr << "cholesky: WRONG: L * L^T differs from A by " << error << " (relative; "
              << cholesky::name(cholesky::precision_of<T>) << " precision passes below "
              << cholesky::error_bound<T>() << ")\n";
    return 1;
  }
  std::cout << "  verified" << std::endl;
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const examples::Options options(
      argc, argv,
      {{"n", 1024}, {"tile", 0}, {"device", 0}, {"check", 256}, {"shape", 0}, {"indefinite", 0}},
      {{"kernels", {"opencl", "blas"}}, {"precision", {"double", "single"}}});
  const std::size_t n = options["n"];
  if (const std::size_t k = options["indefinite"]; k > n) {
    std::cerr << "cholesky: --indefinite " << k << " is past --n " << n << "\n";
    return 2;
  }

  plexus::Runtime runtime;
  plexus::Device* picked = nullptr;
  try {
    picked = &examples::pick_device(runtime, options["device"]);
  } catch (const plexus::error& e) {
    if (e.category() != plexus::error_category::unsupported) throw;  // a bad --device: 1
    std::cerr << "cholesky: " << e.what() << "\n";
    return 77;
  }
  plexus::Device& device = *picked;
  const std::size_t tile = cholesky::tile_size(options.word("kernels"), device, n, options["tile"]);
  if (n % tile != 0) {
    std::cerr << "cholesky: --tile " << tile << " does not divide --n " << n << "\n";
    return 2;
  }
  const cholesky::TileLayout layout{n, tile};
  return cholesky::with_element(
      cholesky::precision_named(options.word("precision")),
      [&](auto zero) { return factor<decltype(zero)>(runtime, device, options, layout); });
} catch (const std::exception& e) {
  std::cerr << "cholesky: " << e.what() << "\n";
  return 1;
}
