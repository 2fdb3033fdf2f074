// plexus-bench-fusion-cuda: kernel fusion on a CUDA GPU (fusion/llvm + compiler/clang + the
// cuda backend, no runtime), fused against unfused in the same run:
//  1. the chain of 4 element-wise kernels of bench/kernels/fusion_chain_kernels.hpp over
//     `--mi` Mi floats, as float kernels (one element per work-item) and as float4 kernels (four):
//     the kernels' NVPTX IR (CompileRequest::emit_ir) fused into PTX with t1, t2, t3
//     promoted to private memory, no barriers. Bytes that must move: unfused 32 per element
//     (each kernel reads one array and writes one), fused 8 (x read, y written). GB/s of
//     each version's own bytes against two copy ceilings of 8 B/element: cuMemcpyDtoD (the
//     backend's same-device copy_from_device) and a copy kernel of the same width. One
//     sample = `--inner` chains (or copies) enqueued back to back, then wait; medians of
//     `--reps`. Results checked: fused y == unfused y, bit for bit.
//  2. launch overhead: 16 tiny kernels (one work-group of 64, out[i] += 1) launched one by
//     one, then wait, against the fused kernel (no barriers), per chain of 16, median over
//     `--rounds` rounds.
// PLEXUS_BENCH_PTX_DIR=<dir> writes the fused PTX there. Exits 0 with a note when there is
// no CUDA device.
// `--local L` launches the chain and copy kernels with work-groups of L (left out: the
// backend's default, 256 on CUDA).
//   plexus-bench-fusion-cuda [--mi 256] [--reps 7] [--inner 10] [--rounds 200] [--local L]
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <regex>

#include "bench_support.hpp"
#include "fusion_bench_support.hpp"
#include "kernels/fusion_chain_kernels.hpp"
#include "plexus/backend.hpp"
#include "plexus/compiler.hpp"
#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/error.hpp"
#include "plexus/fusion_engine.hpp"
#include "standalone_plugin.hpp"

namespace {

using bench::range1;

plexus::CompileResult compile(plexus::Compiler& compiler, bool emit_ir) {
  plexus::CompileRequest request;
  request.source = plexus::kernels::fusion_chain_source();
  request.target = plexus::BinaryFormat::ptx;  // sm_80 PTX: the driver JIT-compiles it
  request.emit_ir = emit_ir;
  plexus::CompileResult compiled = compiler.compile(request);
  if (!compiled.succeeded)
    throw plexus::error(plexus::error_category::build,
                        "the chain does not compile: " + compiled.log);
  return compiled;
}

plexus::FusionArgument argument(std::uint32_t identity, std::size_t promoted_bytes = 0) {
  plexus::FusionArgument arg;
  arg.identity = identity;
  if (promoted_bytes) {
    arg.promotion = plexus::Promotion::private_memory;
    arg.buffer_bytes = promoted_bytes;
  }
  return arg;
}

std::size_t count(const std::string& text, const char* pattern) {
  const std::regex expression(pattern);
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), expression), {}));
}

struct Context {
  plexus::Device& device;
  plexus::DeviceQueue& queue;
  plexus::FusionEngine& engine;
  const plexus::CompileResult& ir;
  const plexus::DeviceModule& module;  // the unfused kernels
  long reps, inner;
  std::size_t local;  // work-group size of the chain and copy kernels; 0: the backend's
};

plexus::FusionResult fuse(Context& c, plexus::FusionRequest& request, const std::string& label) {
  const auto start = bench::clock::now();
  plexus::FusionResult fused = c.engine.fuse(request);
  if (!fused.fused)
    throw plexus::error(plexus::error_category::build, "not fused: " + fused.reason);
  const std::string ptx(reinterpret_cast<const char*>(fused.binary.data()), fused.binary.size());
  std::cout << "  fused " << label
            << " (passes + NVPTX IR -> PTX): " << bench::seconds_since(start) * 1e3
            << " ms; PTX: " << count(ptx, R"(\.entry\s)") << " .entry, "
            << count(ptx, R"(ld\.global)") << " ld.global ("
            << count(ptx, R"(ld\.global[.a-z]*\.v4)") << " v4), " << count(ptx, R"(st\.global)")
            << " st.global\n";
  if (const char* dir = std::getenv("PLEXUS_BENCH_PTX_DIR"); dir && *dir)
    std::ofstream(std::string(dir) + "/" + label + ".ptx") << ptx;
  return fused;
}

// Median seconds of `c.inner` runs of `body` then one wait.
template <class Body>
double timed(Context& c, Body body) {
  std::vector<double> samples;
  body();  // warm-up (JIT, first touch)
  c.queue.wait();
  for (long rep = 0; rep < c.reps; ++rep) {
    const auto start = bench::clock::now();
    for (long i = 0; i < c.inner; ++i) body();
    c.queue.wait();
    samples.push_back(bench::seconds_since(start) / static_cast<double>(c.inner));
  }
  return bench::median(samples);
}

std::vector<float> read_back(Context& c, const void* allocation, std::size_t n) {
  std::vector<float> values(n);
  c.queue.copy_to_host(values.data(), allocation, plexus::CopyLayout::contiguous(0, n * 4));
  c.queue.wait();
  return values;
}

// The chain at one width (1: float, 4: float4) over n floats; false when results differ.
bool chain(Context& c, std::size_t n, int width, double dtod_gbs) {
  const std::string suffix = width == 4 ? "4" : "";
  const std::size_t bytes = n * sizeof(float), items = n / static_cast<std::size_t>(width);
  std::vector<void*> buffer(6, nullptr);  // 1 = x, 2..4 = t1..t3, 5 = y
  for (int b = 1; b <= 5; ++b) buffer[b] = c.device.allocate(bytes);
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 4096);
  c.queue.copy_to_device(buffer[1], x.data(), plexus::CopyLayout::contiguous(0, bytes));
  c.queue.wait();
  const auto arg = [&](std::uint32_t b) {
    return plexus::KernelArgument::of_allocation(buffer[b]);
  };
  plexus::FusionRequest request;
  request.target = plexus::BinaryFormat::ptx;
  request.barrier = plexus::FusionBarrier::none;
  for (std::uint32_t k = 0; k < 4; ++k) {
    const std::string name = plexus::kernels::fusion_chain_names[k] + suffix;
    request.kernels.push_back(
        {plexus::BinaryFormat::llvm_bitcode,
         c.ir.binary,
         bench::kernel_info(c.ir, name),
         range1(items, c.local),
         {argument(1 + k, k == 0 ? 0 : bytes), argument(2 + k, k == 3 ? 0 : bytes)}});
  }
  const plexus::FusionResult fused = fuse(c, request, "chain" + suffix);
  const auto fused_module = c.device.load_module(fused.format, fused.binary, {fused.kernel});
  std::vector<plexus::KernelArgument> fused_args;
  for (std::uint32_t identity : fused.arg_identities) fused_args.push_back(arg(identity));

  const double unfused_s = timed(c, [&] {
    for (std::uint32_t k = 0; k < 4; ++k)
      c.queue.launch(c.module.kernel(plexus::kernels::fusion_chain_names[k] + suffix),
                     range1(items, c.local), std::vector{arg(1 + k), arg(2 + k)});
  });
  const std::vector<float> expected = read_back(c, buffer[5], n);
  const std::vector<float> zeros(n, 0.0f);
  c.queue.copy_to_device(buffer[5], zeros.data(), plexus::CopyLayout::contiguous(0, bytes));
  c.queue.wait();
  const double fused_s = timed(
      c, [&] { c.queue.launch(fused_module->kernel(fused.kernel.name), fused.range, fused_args); });
  const bool same = read_back(c, buffer[5], n) == expected;
  const double copy_s = timed(c, [&] {
    c.queue.launch(c.module.kernel("copy" + suffix), range1(items, c.local),
                   std::vector{arg(1), arg(4)});
  });
  for (int b = 1; b <= 5; ++b) c.device.deallocate(buffer[b]);

  const double gb = 1e-9 * static_cast<double>(n);
  const double fused_gbs = 8 * gb / fused_s, copy_gbs = 8 * gb / copy_s;
  std::cout << std::fixed << std::setprecision(3) << "  " << (width == 4 ? "float4" : "float")
            << " kernels (" << items << " work-items):\n"
            << "    unfused: " << unfused_s * 1e3 << " ms (" << std::setprecision(0)
            << 32 * gb / unfused_s << " GB/s of its 32 B/element)\n"
            << std::setprecision(3) << "    fused:   " << fused_s * 1e3 << " ms ("
            << std::setprecision(0) << fused_gbs << " GB/s of its 8 B/element)"
            << (same ? "" : "  WRONG RESULT") << "\n"
            << std::setprecision(2) << "    speed-up " << unfused_s / fused_s << "x; copy kernel "
            << std::setprecision(0) << copy_gbs << " GB/s; fused = " << 100 * fused_gbs / copy_gbs
            << "% of the copy kernel";
  if (dtod_gbs > 0) std::cout << ", " << 100 * fused_gbs / dtod_gbs << "% of cuMemcpyDtoD";
  std::cout << "\n";
  return same;
}

// GB/s of a same-device copy of n floats (8 B/element), or 0 when the backend has none.
double dtod_bandwidth(Context& c, std::size_t n) {
  void* from = c.device.allocate(n * 4);
  void* to = c.device.allocate(n * 4);
  const auto layout = plexus::CopyLayout::contiguous(0, n * 4);
  double seconds = 0;
  if (c.queue.copy_from_device(to, c.device, from, layout)) {
    c.queue.wait();
    seconds = timed(c, [&] { c.queue.copy_from_device(to, c.device, from, layout); });
  }
  c.device.deallocate(from);
  c.device.deallocate(to);
  return seconds > 0 ? 8e-9 * static_cast<double>(n) / seconds : 0;
}

bool tiny_chain(Context& c, long rounds) {
  auto* counters = c.device.allocate(64 * sizeof(int));
  const std::vector<int> zeros(64, 0);
  c.queue.copy_to_device(counters, zeros.data(),
                         plexus::CopyLayout::contiguous(0, 64 * sizeof(int)));
  c.queue.wait();
  plexus::FusionRequest request;
  request.target = plexus::BinaryFormat::ptx;
  request.barrier = plexus::FusionBarrier::none;
  for (int k = 0; k < 16; ++k)
    request.kernels.push_back({plexus::BinaryFormat::llvm_bitcode,
                               c.ir.binary,
                               bench::kernel_info(c.ir, "tiny"),
                               range1(64, 64),
                               {argument(1)}});
  const plexus::FusionResult fused = fuse(c, request, "tiny16");
  const auto fused_module = c.device.load_module(fused.format, fused.binary, {fused.kernel});
  const std::vector args{plexus::KernelArgument::of_allocation(counters)};
  std::vector<double> unfused_s, fused_s;
  for (long rep = 0; rep < c.reps; ++rep) {
    auto start = bench::clock::now();
    for (long r = 0; r < rounds; ++r) {
      for (int k = 0; k < 16; ++k) c.queue.launch(c.module.kernel("tiny"), range1(64, 64), args);
      c.queue.wait();
    }
    unfused_s.push_back(bench::seconds_since(start) / static_cast<double>(rounds));
    start = bench::clock::now();
    for (long r = 0; r < rounds; ++r) {
      c.queue.launch(fused_module->kernel(fused.kernel.name), fused.range, args);
      c.queue.wait();
    }
    fused_s.push_back(bench::seconds_since(start) / static_cast<double>(rounds));
  }
  std::vector<int> values(64);
  c.queue.copy_to_host(values.data(), counters,
                       plexus::CopyLayout::contiguous(0, 64 * sizeof(int)));
  c.queue.wait();
  c.device.deallocate(counters);
  const bool ok = values[0] == 32 * rounds * c.reps && values[63] == 32 * rounds * c.reps;
  std::cout << std::setprecision(1) << "  unfused: " << bench::median(unfused_s) * 1e6
            << " us per chain of 16\n  fused:   " << bench::median(fused_s) * 1e6 << " us"
            << (ok ? "" : "  WRONG RESULT") << "\n  speed-up " << std::setprecision(2)
            << bench::median(unfused_s) / bench::median(fused_s) << "x\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(
      argc, argv, {{"mi", 256}, {"reps", 7}, {"inner", 10}, {"rounds", 200}, {"local", 0}});
  bench::CompilerOnlyLookup lookup;  // the fusion engine sees the compiler, nothing else
  const auto compiler = bench::load_plugin<plexus::Compiler>("compiler", "clang", lookup);
  lookup.compiler_ = compiler.get();
  const auto engine = bench::load_plugin<plexus::FusionEngine>("fusion", "llvm", lookup);
  const auto backend = bench::load_plugin<plexus::Backend>("backend", "cuda", lookup);
  if (!backend->status().available || backend->device_count() == 0) {
    std::cout << "plexus-bench-fusion-cuda: no CUDA device, nothing measured: "
              << backend->status().reason << "\n";
    return 0;
  }
  plexus::Device& device = backend->device(0);
  std::cout << "device: " << device.info().name << " (" << device.info().architecture << ", "
            << device.info().compute_units << " SMs)\n";
  const plexus::CompileResult ptx = compile(*compiler, false);
  const plexus::CompileResult ir = compile(*compiler, true);
  const auto module = device.load_module(plexus::BinaryFormat::ptx, ptx.binary, ptx.kernels);
  const auto queue = device.create_queue();
  Context c{device,
            *queue,
            *engine,
            ir,
            *module,
            options.at("reps"),
            options.at("inner"),
            static_cast<std::size_t>(options.at("local"))};

  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  const double dtod = dtod_bandwidth(c, n);
  std::cout << "1. chain of 4 element-wise kernels, " << options.at("mi")
            << " Mi floats (medians of " << c.reps << " x " << c.inner << ", work-groups of "
            << (c.local ? std::to_string(c.local) : std::string("the backend's default"))
            << "); cuMemcpyDtoD of the same 4 B/element: " << std::setprecision(0) << std::fixed
            << dtod << " GB/s (8 B/element)\n";
  bool ok = chain(c, n, 1, dtod);
  ok = chain(c, n, 4, dtod) && ok;
  std::cout << "2. 16 tiny kernels (one work-group of 64 each), launch + wait per chain, median of "
            << c.reps << " x " << options.at("rounds") << ":\n";
  ok = tiny_chain(c, options.at("rounds")) && ok;
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-fusion-cuda: " << e.what() << "\n";
  return 1;
}
