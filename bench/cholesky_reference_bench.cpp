// Tiled Cholesky (`cholesky --kernels blas`: vendor libraries per tile; `--kernels opencl`:
// the demo's OpenCL C tile kernels) against the one library call a user would make instead,
// side by side in one process (issue 14's goals):
//   --on host: LAPACKE_dpotrf (OpenBLAS, all cores) vs Plexus on the host device (one
//     single-threaded OpenBLAS call per tile task, several tasks at once).
//   --on cuda: cusolverDnDpotrf vs Plexus on CUDA device 0 (cuBLAS/cuSOLVER per tile):
//     end to end: the matrix in pageable host memory (as a Plexus buffer's host copy is),
//       copied in, factored, copied back: the library as one HtoD copy + potrf + one DtoH
//       copy on a stream; Plexus from the first submit until a host view of the buffer is
//       valid (the factor in the buffer's host memory; no extra memcpy);
//     on device: the data already there: the library's potrf alone; Plexus after a native
//       task "resident" has had the whole matrix made valid on the GPU (waited for, not
//       timed), from the first submit of the factorisation until queue.wait() returns (the
//       factor stays on the device; it is fetched afterwards, untimed, for the check). With
//       --kernels opencl, "resident" is an empty kernel, and the kernels are built before.
// Both sides start from a fresh copy of the same matrix each repetition (the copy is not
// timed: the buffer's constructor copies it in, the library factors its copy in place).
// Repetitions alternate the two sides, 0.3 s apart (OpenBLAS's idle threads spin for a
// while after a threaded call); medians are reported. The last repetition of each side is
// checked (--check R rows of L * L^T, as the demo). The scheduler and memory model are the
// config's (PLEXUS_SCHEDULER, PLEXUS_MEMORY).
//   plexus-bench-cholesky-reference [--on host|cuda] [--kernels blas|opencl] [--n 2048]
//     [--tile 0 (the demo's default)] [--reps 5] [--check 64]
// Exit status: 0 measured and verified, 1 wrong or failed, 77 nothing measured (no such
// device, or a library missing: the note says which).
#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <thread>

#include "bench_support.hpp"
#include "cholesky/matrix.hpp"
#include "cholesky/tile_kernels_choice.hpp"
#include "cholesky_reference.hpp"
#include "common/example_options.hpp"

namespace {

struct Setup {
  plexus::Runtime& runtime;
  plexus::Device& device;
  plexus::Queue& queue;
  cholesky::TileKernels<double>& kernels;
  cholesky::TileLayout layout;
  const std::vector<double>& input;

  plexus::Buffer<double, 2> buffer() const {
    plexus::BufferOptions options;
    options.page_extent = {layout.tile, layout.tile, 1};
    return plexus::Buffer<double, 2>(input.data(), plexus::Range{layout.n, layout.n}, options);
  }
};

// Plexus end to end: submit -> the factor valid in the buffer's host memory.
double plexus_end_to_end(Setup& s, std::vector<double>& factor) {
  plexus::Buffer<double, 2> a = s.buffer();
  const auto start = bench::clock::now();
  cholesky::submit_factorisation(s.queue, a, s.layout, s.kernels);
  const auto view = a.host_access(plexus::read);
  const double seconds = bench::seconds_since(start);
  std::memcpy(factor.data(), view.data(), factor.size() * sizeof(double));
  return seconds;
}

// Plexus on the device: the matrix made resident first (untimed), then submit -> done.
double plexus_on_device(Setup& s, std::vector<double>& factor) {
  plexus::Buffer<double, 2> a = s.buffer();
  s.queue.submit([&](plexus::Handler& h) {
    s.kernels.record_resident(h, a.access(h, plexus::read_write));
  });
  s.queue.wait();
  const auto start = bench::clock::now();
  cholesky::submit_factorisation(s.queue, a, s.layout, s.kernels);
  s.queue.wait();
  const double seconds = bench::seconds_since(start);
  a.copy_to(factor.data());
  return seconds;
}

void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

double gflops(std::size_t n, double seconds) {
  return double(n) * double(n) * double(n) / 3.0 / seconds / 1e9;
}

bool verified(const char* who, const std::vector<double>& factor, const std::vector<double>& input,
              std::size_t n, std::size_t rows) {
  const double error = cholesky::factor_error(factor, input, n, rows);
  std::cout << "  " << who << ": relative error " << std::scientific << std::setprecision(1)
            << error << std::fixed << (error < 1e-10 ? "" : "  WRONG") << "\n";
  return error < 1e-10;
}

}  // namespace

int main(int argc, char** argv) try {
  const examples::Options options(argc, argv, {{"n", 2048}, {"tile", 0}, {"reps", 5}, {"check", 64}},
                                  {{"on", {"host", "cuda"}}, {"kernels", {"blas", "opencl"}}});
  const std::string& kind = options.word("kernels");
  const bool gpu = options.word("on") == "cuda";
  const std::size_t n = options["n"], reps = options["reps"];
  if (!gpu && !bench::LapackeReference::available()) {
    std::cout << "plexus-bench-cholesky-reference: " << bench::LapackeReference::describe()
              << ": nothing measured\n";
    return 77;
  }
  plexus::Runtime runtime(bench::config_with({{"backends", gpu ? "cuda" : "host"}}));
  if (runtime.devices().empty()) {
    std::cout << "plexus-bench-cholesky-reference: no " << options.word("on")
              << " device, nothing measured (`plexus info` says why)\n";
    return 77;
  }
  plexus::Device& device = *runtime.devices().front();
  const std::size_t tile = cholesky::tile_size(kind, device, n, options["tile"]);
  if (n % tile != 0) throw plexus::error(plexus::error_category::invalid_argument,
                                         "--tile " + std::to_string(tile) + " does not divide --n " + std::to_string(n));
  const cholesky::TileLayout layout{n, tile};
  const std::vector<double> input = cholesky::spd_matrix<double>(n);
  std::unique_ptr<cholesky::TileKernels<double>> made;
  try {
    made = cholesky::make_tile_kernels<double>(kind, runtime, device, layout);
  } catch (const plexus::error& e) {
    if (e.category() != plexus::error_category::unsupported) throw;
    std::cout << "plexus-bench-cholesky-reference: " << e.what() << ": nothing measured\n";
    return 77;
  }
  cholesky::TileKernels<double>& kernels = *made;
  plexus::Queue queue = runtime.queue(device, plexus::QueueOrder::out_of_order);
  Setup setup{runtime, device, queue, kernels, layout, input};
  std::unique_ptr<bench::CusolverReference> cusolver;
  if (gpu) cusolver = std::make_unique<bench::CusolverReference>(n);

  std::cout << std::fixed << std::setprecision(1) << "Cholesky n " << n << ", tile " << tile << ", "
            << reps << " repetitions (median), kernels " << kernels.describe() << ", "
            << examples::describe(runtime, device) << "\n";
  std::vector<double> factor(n * n), reference(n * n);
  std::vector<double> ref_e2e, plexus_e2e, ref_resident, plexus_resident;
  for (std::size_t rep = 0; rep < reps; ++rep) {
    plexus_e2e.push_back(plexus_end_to_end(setup, factor));
    settle();
    reference = input;
    ref_e2e.push_back(gpu ? cusolver->end_to_end(reference) : bench::LapackeReference::run(reference, n));
    settle();
    if (!gpu) continue;
    plexus_resident.push_back(plexus_on_device(setup, factor));
    settle();
    reference = input;
    ref_resident.push_back(cusolver->on_device(reference));
    settle();
  }
  const auto row = [&](const std::string& label, const std::vector<double>& times) {
    const double t = bench::median(times);
    std::cout << "  " << std::left << std::setw(44) << label << std::right << std::setw(9)
              << t * 1e3 << " ms " << std::setw(9) << gflops(n, t) << " GFLOP/s\n";
    return t;
  };
  bool ok = true;
  if (!gpu) {
    const double r = row("LAPACKE_dpotrf (" + bench::LapackeReference::describe() + ")", ref_e2e);
    const double p = row("plexus --kernels " + kind, plexus_e2e);
    std::cout << "  plexus at " << std::setprecision(2) << r / p
              << " of LAPACKE_dpotrf's speed (goal >= " << (kind == "blas" ? "0.90" : "0.30") << ")\n";
    ok = verified("plexus", factor, input, n, options["check"]) &&
         verified("LAPACKE_dpotrf", reference, input, n, options["check"]);
  } else {
    std::cout << "  cuSOLVER: " << cusolver->describe() << "\n";
    const double re = row("cusolverDnDpotrf end to end (HtoD+potrf+DtoH)", ref_e2e);
    const double pe = row("plexus --kernels " + kind + " end to end", plexus_e2e);
    const double rd = row("cusolverDnDpotrf on device", ref_resident);
    const double pd = row("plexus --kernels " + kind + " on device", plexus_resident);
    std::cout << std::setprecision(2) << "  end to end: plexus takes " << pe / re
              << "x cuSOLVER's time (goal <= 1.0)\n  on device: plexus at " << rd / pd
              << " of cuSOLVER's GFLOP/s (goal >= " << (kind == "blas" ? "0.70" : "0.20") << ")\n";
    cusolver->fetch(reference);
    ok = verified("plexus (on device)", factor, input, n, options["check"]) &&
         verified("cusolverDnDpotrf", reference, input, n, options["check"]) && ok;
  }
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-cholesky-reference: " << e.what() << "\n";
  return 1;
}
