// plexus-bench-host: the host backend alone (no runtime, no scheduler). Measures
//  1. per-launch overhead: a tiny kernel (one work-group of 64 work-items), launched and
//     waited for `--launches` times, median of `--reps` batches, per launch;
//  2. vector add c = a + b over `--mi` Mi floats: GB/s (12 bytes per element moved) against
//     memcpy of the same bytes (8 bytes per element: read + write of one array), medians of
//     `--reps`.
// Kernels are compiled by compiler/clang to llvm_bitcode and JIT-compiled by the backend
// (compile and load times are printed too). Results are checked.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "plexus/backend.hpp"
#include "plexus/compiler.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/config.hpp"
#include "plexus/device.hpp"
#include "plexus/error.hpp"
#include "standalone_plugin.hpp"

namespace {

const char* const source = R"(
__kernel void tiny(__global int* out) { out[get_global_id(0)] += 1; }
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

}  // namespace

int main(int argc, char** argv) try {
  const auto options =
      bench::parse_options(argc, argv, {{"mi", 64}, {"reps", 5}, {"launches", 2000}, {"threads", 0}});
  const bench::CompilerOnlyLookup none;  // the components see nothing else
  const auto compiler = bench::load_plugin<plexus::Compiler>("compiler", "clang", none);
  const std::string backend_options =
      options.at("threads") > 0 ? "threads = " + std::to_string(options.at("threads")) : "";
  const auto backend = bench::load_plugin<plexus::Backend>("backend", "host", none, backend_options);
  plexus::Device& device = backend->device(0);
  std::cout << "device: " << device.info().name << " (" << device.info().compute_units
            << " compute units)\n";

  plexus::CompileRequest request;
  request.source = source;
  request.target = plexus::BinaryFormat::llvm_bitcode;
  auto start = bench::clock::now();
  const plexus::CompileResult compiled = compiler->compile(request);
  if (!compiled.succeeded) {
    std::cerr << compiled.log;
    return 1;
  }
  const double compile_s = bench::seconds_since(start);
  start = bench::clock::now();
  const auto module =
      device.load_module(plexus::BinaryFormat::llvm_bitcode, compiled.binary, compiled.kernels);
  std::cout << "compile (clang, llvm-bitcode): " << compile_s * 1e3
            << " ms; load (JIT, O3): " << bench::seconds_since(start) * 1e3 << " ms\n";
  const auto queue = device.create_queue();

  // 1. Launch overhead.
  const long launches = options.at("launches");
  auto* counters = static_cast<int*>(device.allocate(64 * sizeof(int)));
  std::fill(counters, counters + 64, 0);
  plexus::NdRange tiny_range;
  tiny_range.global = {64, 1, 1};
  tiny_range.local = {64, 1, 1};
  const plexus::KernelArgument tiny_args[] = {plexus::KernelArgument::of_allocation(counters)};
  std::vector<double> per_launch;
  for (long rep = 0; rep < options.at("reps"); ++rep) {
    start = bench::clock::now();
    for (long i = 0; i < launches; ++i) {
      queue->launch(module->kernel("tiny"), tiny_range, tiny_args);
      queue->wait();
    }
    per_launch.push_back(bench::seconds_since(start) / static_cast<double>(launches));
  }
  const bool tiny_ok =
      counters[0] == launches * options.at("reps") && counters[63] == launches * options.at("reps");
  std::cout << "launch + wait, 1 work-group of 64: " << bench::median(per_launch) * 1e6
            << " us per launch (median of " << options.at("reps") << " x " << launches << ")"
            << (tiny_ok ? "" : "  WRONG RESULT") << "\n";
  device.deallocate(counters);

  // The same with 16 work-groups: the pool's workers are woken for each launch.
  auto* wide = static_cast<int*>(device.allocate(1024 * sizeof(int)));
  std::fill(wide, wide + 1024, 0);
  plexus::NdRange wide_range = tiny_range;
  wide_range.global = {1024, 1, 1};
  const plexus::KernelArgument wide_args[] = {plexus::KernelArgument::of_allocation(wide)};
  std::vector<double> per_wide_launch;
  for (long rep = 0; rep < options.at("reps"); ++rep) {
    start = bench::clock::now();
    for (long i = 0; i < launches; ++i) {
      queue->launch(module->kernel("tiny"), wide_range, wide_args);
      queue->wait();
    }
    per_wide_launch.push_back(bench::seconds_since(start) / static_cast<double>(launches));
  }
  const bool wide_ok = wide[1023] == launches * options.at("reps");
  std::cout << "launch + wait, 16 work-groups of 64: " << bench::median(per_wide_launch) * 1e6
            << " us per launch" << (wide_ok ? "" : "  WRONG RESULT") << "\n";
  device.deallocate(wide);

  // 2. Vector add against memcpy.
  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  auto* a = static_cast<float*>(device.allocate(n * sizeof(float)));
  auto* b = static_cast<float*>(device.allocate(n * sizeof(float)));
  auto* c = static_cast<float*>(device.allocate(n * sizeof(float)));
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1024);
    b[i] = 1.0f;
    c[i] = 0.0f;
  }
  plexus::NdRange range;
  range.global = {n, 1, 1};
  const plexus::KernelArgument vadd_args[] = {plexus::KernelArgument::of_allocation(a),
                                              plexus::KernelArgument::of_allocation(b),
                                              plexus::KernelArgument::of_allocation(c)};
  std::vector<double> vadd_s, memcpy_s;
  for (long rep = 0; rep < options.at("reps"); ++rep) {
    start = bench::clock::now();
    queue->launch(module->kernel("vadd"), range, vadd_args);
    queue->wait();
    vadd_s.push_back(bench::seconds_since(start));
    start = bench::clock::now();
    std::memcpy(c, a, n * sizeof(float));
    memcpy_s.push_back(bench::seconds_since(start));
  }
  queue->launch(module->kernel("vadd"), range, vadd_args);
  queue->wait();
  bool vadd_ok = true;
  for (std::size_t i = 0; i < n; i += 4099) vadd_ok &= c[i] == a[i] + 1.0f;
  const double bytes = static_cast<double>(n) * sizeof(float);
  std::cout << "vector add " << options.at("mi") << " Mi floats: " << bench::median(vadd_s) * 1e3
            << " ms, " << 3 * bytes / bench::median(vadd_s) / 1e9 << " GB/s (12 B/element)"
            << (vadd_ok ? "" : "  WRONG RESULT") << "\n";
  std::cout << "memcpy " << options.at("mi") << " Mi floats: " << bench::median(memcpy_s) * 1e3 << " ms, "
            << 2 * bytes / bench::median(memcpy_s) / 1e9 << " GB/s (8 B/element)\n";
  device.deallocate(a);
  device.deallocate(b);
  device.deallocate(c);
  return tiny_ok && wide_ok && vadd_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-host: " << e.what() << "\n";
  return 1;
}
