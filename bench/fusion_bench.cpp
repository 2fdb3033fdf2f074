// plexus-bench-fusion: kernel fusion on the host device (fusion/llvm + compiler/clang +
// the host backend, no runtime), fused against unfused in the same run:
//  1. a chain of 4 element-wise kernels over `--mi` Mi floats (t1 = 2x + 1, t2 = t1 * t1,
//     t3 = t2 + 0.5, y = sqrt(t3)); fused with t1, t2, t3 promoted to private memory.
//     Bytes that must move: unfused 32 per element (each kernel reads and writes one
//     array), fused 8 (x read, y written). GB/s of each version's own bytes, against memcpy
//     of 8 bytes per element (read + write), medians of `--reps`;
//  2. launch overhead: 16 tiny kernels (one work-group of 64, out[i] += 1) launched one by
//     one against the fused kernel (no barriers), median over `--rounds` rounds.
// Results are checked (fused == unfused); fusion and load times are printed.
#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>

#include "bench_support.hpp"
#include "fusion_bench_support.hpp"
#include "kernels/fusion_chain_kernels.hpp"
#include "plexus/backend.hpp"
#include "plexus/compiler.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/fusion_engine.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "standalone_plugin.hpp"

namespace {

using bench::range1;

plexus::FusionKernel fusion_kernel(const plexus::CompileResult& compiled, const std::string& name,
                                   const plexus::NdRange& range,
                                   std::vector<plexus::FusionArgument> args) {
  return {plexus::BinaryFormat::llvm_bitcode, compiled.binary, bench::kernel_info(compiled, name),
          range, std::move(args)};
}

plexus::FusionArgument promoted(std::uint32_t identity, std::size_t bytes) {
  plexus::FusionArgument arg;
  arg.identity = identity;
  arg.promotion = plexus::Promotion::private_memory;
  arg.buffer_bytes = bytes;
  return arg;
}

plexus::FusionArgument plain(std::uint32_t identity) {
  plexus::FusionArgument arg;
  arg.identity = identity;
  return arg;
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"mi", 16}, {"reps", 5}, {"rounds", 500}});
  bench::CompilerOnlyLookup lookup;  // the fusion engine sees the compiler, nothing else
  const auto compiler = bench::load_plugin<plexus::Compiler>("compiler", "clang", lookup);
  lookup.compiler_ = compiler.get();
  const auto engine = bench::load_plugin<plexus::FusionEngine>("fusion", "llvm", lookup);
  const auto backend = bench::load_plugin<plexus::Backend>("backend", "host", lookup);
  plexus::Device& device = backend->device(0);
  std::cout << "device: " << device.info().name << " (" << device.info().compute_units
            << " compute units)\n";
  plexus::CompileRequest request;
  request.source = plexus::kernels::fusion_chain_source();
  request.target = plexus::BinaryFormat::llvm_bitcode;
  const plexus::CompileResult compiled = compiler->compile(request);
  if (!compiled.succeeded) {
    std::cerr << compiled.log;
    return 1;
  }
  const auto module =
      device.load_module(plexus::BinaryFormat::llvm_bitcode, compiled.binary, compiled.kernels);
  const auto queue = device.create_queue();

  // 1. The element-wise chain: buffers 1 = x, 2..4 = t1..t3, 5 = y.
  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  const std::size_t bytes = n * sizeof(float);
  std::vector<float*> buffer(6, nullptr);
  for (int b = 1; b <= 5; ++b) buffer[b] = static_cast<float*>(device.allocate(bytes));
  for (std::size_t i = 0; i < n; ++i) buffer[1][i] = static_cast<float>(i % 4096);
  const auto arg = [&](int b) { return plexus::KernelArgument::of_allocation(buffer[b]); };
  const char* const chain[] = {"affine", "square", "shift", "root"};
  plexus::FusionRequest fuse;
  fuse.barrier = plexus::FusionBarrier::none;
  for (int k = 0; k < 4; ++k)
    fuse.kernels.push_back(fusion_kernel(
        compiled, chain[k], range1(n),
        {k == 0 ? plain(1) : promoted(1 + k, bytes), k == 3 ? plain(5) : promoted(2 + k, bytes)}));
  auto start = bench::clock::now();
  const plexus::FusionResult fused = engine->fuse(fuse);
  if (!fused.fused) {
    std::cerr << "not fused: " << fused.reason << "\n";
    return 1;
  }
  const double fuse_s = bench::seconds_since(start);
  start = bench::clock::now();
  const auto fused_module = device.load_module(fused.format, fused.binary, {fused.kernel});
  std::cout << "fuse 4 kernels (passes + compile): " << fuse_s * 1e3
            << " ms; load (JIT): " << bench::seconds_since(start) * 1e3 << " ms; promoted "
            << fused.promoted.size() << " buffers, fused arguments " << fused.arg_identities.size()
            << "\n";
  std::vector<plexus::KernelArgument> fused_args;
  for (std::uint32_t identity : fused.arg_identities) fused_args.push_back(arg(identity));

  std::vector<double> unfused_s, fused_s, memcpy_s;
  std::vector<float> expected;
  bool same = true;
  for (long rep = 0; rep < options.at("reps"); ++rep) {
    start = bench::clock::now();
    for (int k = 0; k < 4; ++k)
      queue->launch(module->kernel(chain[k]), range1(n),
                    std::vector{arg(1 + k), arg(k == 3 ? 5 : 2 + k)});
    queue->wait();
    unfused_s.push_back(bench::seconds_since(start));
    if (expected.empty()) expected.assign(buffer[5], buffer[5] + n);
    std::fill(buffer[5], buffer[5] + n, 0.0f);
    start = bench::clock::now();
    queue->launch(fused_module->kernel(fused.kernel.name), fused.range, fused_args);
    queue->wait();
    fused_s.push_back(bench::seconds_since(start));
    same = same && std::memcmp(expected.data(), buffer[5], bytes) == 0;
    start = bench::clock::now();
    std::memcpy(buffer[4], buffer[1], bytes);
    memcpy_s.push_back(bench::seconds_since(start));
  }
  const double gb = 1e-9 * static_cast<double>(n);
  std::cout << "chain of 4 element-wise kernels, " << options.at("mi") << " Mi floats (median of "
            << options.at("reps") << "):\n"
            << "  unfused: " << bench::median(unfused_s) * 1e3 << " ms, "
            << 32 * gb / bench::median(unfused_s) << " GB/s of its 32 B/element\n"
            << "  fused:   " << bench::median(fused_s) * 1e3 << " ms, "
            << 8 * gb / bench::median(fused_s) << " GB/s of its 8 B/element"
            << (same ? "" : "  WRONG RESULT") << "\n"
            << "  speed-up " << bench::median(unfused_s) / bench::median(fused_s)
            << "x; memcpy (8 B/element): " << 8 * gb / bench::median(memcpy_s) << " GB/s\n";
  for (int b = 1; b <= 5; ++b) device.deallocate(buffer[b]);

  // 2. Launch overhead: 16 tiny kernels.
  auto* counters = static_cast<int*>(device.allocate(64 * sizeof(int)));
  std::fill(counters, counters + 64, 0);
  plexus::FusionRequest tiny;
  tiny.barrier = plexus::FusionBarrier::none;
  for (int k = 0; k < 16; ++k)
    tiny.kernels.push_back(fusion_kernel(compiled, "tiny", range1(64, 64), {plain(1)}));
  const plexus::FusionResult tiny_fused = engine->fuse(tiny);
  if (!tiny_fused.fused) {
    std::cerr << "not fused: " << tiny_fused.reason << "\n";
    return 1;
  }
  const auto tiny_module =
      device.load_module(tiny_fused.format, tiny_fused.binary, {tiny_fused.kernel});
  const std::vector tiny_args{plexus::KernelArgument::of_allocation(counters)};
  const long rounds = options.at("rounds");
  std::vector<double> tiny_unfused, tiny_fused_s;
  for (long rep = 0; rep < options.at("reps"); ++rep) {
    start = bench::clock::now();
    for (long r = 0; r < rounds; ++r) {
      for (int k = 0; k < 16; ++k) queue->launch(module->kernel("tiny"), range1(64, 64), tiny_args);
      queue->wait();
    }
    tiny_unfused.push_back(bench::seconds_since(start) / static_cast<double>(rounds));
    start = bench::clock::now();
    for (long r = 0; r < rounds; ++r) {
      queue->launch(tiny_module->kernel(tiny_fused.kernel.name), tiny_fused.range, tiny_args);
      queue->wait();
    }
    tiny_fused_s.push_back(bench::seconds_since(start) / static_cast<double>(rounds));
  }
  const bool tiny_ok = counters[0] == 32 * rounds * options.at("reps") &&
                       counters[63] == 32 * rounds * options.at("reps");
  std::cout << "16 tiny kernels (1 work-group of 64 each), per chain of 16 (median of "
            << options.at("reps") << " x " << rounds << "):\n"
            << "  unfused: " << bench::median(tiny_unfused) * 1e6 << " us\n"
            << "  fused:   " << bench::median(tiny_fused_s) * 1e6 << " us"
            << (tiny_ok ? "" : "  WRONG RESULT") << "\n"
            << "  speed-up " << bench::median(tiny_unfused) / bench::median(tiny_fused_s) << "x\n";
  device.deallocate(counters);
  return same && tiny_ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-fusion: " << e.what() << "\n";
  return 1;
}
