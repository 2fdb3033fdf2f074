// plexus-bench-builtins: the host device library's builtins in a math-heavy and a
// conversion-heavy kernel (issue 15), over `--mi` Mi floats, medians of `--reps` launches:
//  - math (libm-backed functions math.cl had before: sin exp sqrt pow log1p atan2 cbrt);
//  - math-new (functions the library gained: sinpi exp10 erfc asinh fdim rootn);
//  - convert: float4 -> convert_int4_sat_rte -> convert_uchar4_sat -> convert_float4
//    (vector conversions, which the library lacked), against convert-casts: the same
//    results with scalar C casts, rint and clamps (what a host kernel could write before);
//  - group-sum (OpenCL C 2.0 work_group_reduce_add, groups of 256) against group-sum-local
//    (the same sums by a local-memory tree with barriers).
// Each runs on the host device with this build's device library and, when
// PLEXUS_BENCH_OLD_HOST_LIBRARY names another library file (an earlier build's), with that
// one too (kernels it cannot build are reported as such); and on PoCL when the OpenCL
// backend finds it. Results are checked against the host run.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "plexus/backend.hpp"
#include "plexus/compiler.hpp"
#include "plexus/device.hpp"
#include "plexus/device_queue.hpp"
#include "standalone_plugin.hpp"

namespace {

const char* const source = R"(
__kernel void math(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = sin(x) * exp(-x * x * 0.01f) + sqrt(fabs(x)) + pow(fabs(x), 1.5f) + log1p(fabs(x)) +
           atan2(x, 1.5f) + cbrt(x);
}
__kernel void math_new(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = sinpi(x) + exp10(x * 0.01f) + erfc(x) + asinh(x) + fdim(x, 0.5f) + rootn(fabs(x), 3);
}
__kernel void convert(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  int4 v = convert_int4_sat_rte(vload4(i, in) * 1000.0f);
  uchar4 c = convert_uchar4_sat(v >> 4);
  vstore4(convert_float4(v) + convert_float4(c), i, out);
}
__kernel void convert_casts(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  for (int k = 0; k < 4; ++k) {
    float x = rint(in[i * 4 + k] * 1000.0f);
    int v = x != x ? 0 : x >= 2147483648.0f ? 2147483647 : x < -2147483648.0f ? (-2147483647 - 1) : (int)x;
    int s = v >> 4;
    uchar c = (uchar)(s < 0 ? 0 : s > 255 ? 255 : s);
    out[i * 4 + k] = (float)v + (float)c;
  }
}
)";

// OpenCL C 2.0: a work-group sum by work_group_reduce_add against the local-memory tree a
// kernel writes without it (both give every work-item its group's sum).
const char* const collectives_source = R"(
__kernel void group_sum(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = work_group_reduce_add(in[i]);
}
__kernel void group_sum_local(__global const float* in, __global float* out) {
  __local float part[256];
  size_t i = get_global_id(0), l = get_local_id(0);
  part[l] = in[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[i] = part[0];
}
)";

struct Kernel {
  const char* name;
  std::size_t items_per_element;  // work-items = elements / this
  const char* source = nullptr;   // null: `source`
  const char* options = "";
  std::size_t local = 0;          // 0: the device chooses
};
const Kernel kernels[] = {{"math", 1},
                          {"math_new", 1},
                          {"convert", 4},
                          {"convert_casts", 4},
                          {"group_sum", 1, collectives_source, "-cl-std=CL2.0", 256},
                          {"group_sum_local", 1, collectives_source, "-cl-std=CL2.0", 256}};

struct Target {
  std::string label;
  plexus::Device* device;
  plexus::Compiler* compiler;
};

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"mi", 16}, {"reps", 5}});
  const bench::CompilerOnlyLookup none;
  const auto compiler = bench::load_plugin<plexus::Compiler>("compiler", "clang", none);
  std::shared_ptr<plexus::Compiler> old_compiler;
  if (const char* old = std::getenv("PLEXUS_BENCH_OLD_HOST_LIBRARY"); old && *old)
    old_compiler = bench::load_plugin<plexus::Compiler>(
        "compiler", "clang", none, "host_device_library = \"" + std::string(old) + "\"");
  const auto host = bench::load_plugin<plexus::Backend>("backend", "host", none);
  std::shared_ptr<plexus::Backend> opencl;
  try {
    opencl = bench::load_plugin<plexus::Backend>("backend", "opencl", none);
    if (!opencl->status().available || opencl->device_count() == 0) opencl.reset();
  } catch (const std::exception&) {
    opencl.reset();
  }
  std::vector<Target> targets = {{"host", &host->device(0), compiler.get()}};
  if (old_compiler) targets.push_back({"host, old library", &host->device(0), old_compiler.get()});
  if (opencl) targets.push_back({"PoCL", &opencl->device(0), compiler.get()});

  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  std::vector<float> input(n), reference(n), output(n);
  for (std::size_t i = 0; i < n; ++i)
    input[i] = static_cast<float>((static_cast<double>(i % 100003) / 100003.0 - 0.5) * 40.0);
  const plexus::CopyLayout whole = plexus::CopyLayout::contiguous(0, n * sizeof(float));
  std::cout << "elements: " << options.at("mi") << " Mi floats; medians of " << options.at("reps")
            << " launches\n";
  bool ok = true;
  std::vector<float> converted;
  for (const Kernel& kernel : kernels) {
    for (std::size_t t = 0; t < targets.size(); ++t) {
      const Target& target = targets[t];
      plexus::CompileRequest request;
      request.source = kernel.source ? kernel.source : source;
      if (*kernel.options) request.options = {kernel.options};
      request.kernel_name = kernel.name;
      request.target = target.device->info().formats.front();
      const plexus::CompileResult compiled = target.compiler->compile(request);
      std::cout << std::left << std::setw(16) << kernel.name << std::setw(20) << target.label;
      if (!compiled.succeeded) {
        const std::string log = compiled.log.substr(0, compiled.log.find('\n'));
        std::cout << "does not build: " << log.substr(0, 160) << "\n";
        continue;
      }
      std::shared_ptr<plexus::DeviceModule> module;
      try {
        module = target.device->load_module(request.target, compiled.binary, compiled.kernels);
      } catch (const std::exception& e) {  // PoCL 3.1 lacks the work-group collectives
        const std::string message = e.what();
        const std::size_t missing = message.find("Cannot find symbol");
        std::cout << "does not load: "
                  << message.substr(missing == std::string::npos ? 0 : missing, 120) << "\n";
        continue;
      }
      void* in = target.device->allocate(n * sizeof(float));
      void* out = target.device->allocate(n * sizeof(float));
      const auto queue = target.device->create_queue();
      queue->copy_to_device(in, input.data(), whole);
      plexus::NdRange range;
      range.global = {n / kernel.items_per_element, 1, 1};
      if (kernel.local) range.local = {kernel.local, 1, 1};
      const plexus::KernelArgument arguments[] = {plexus::KernelArgument::of_allocation(in),
                                                  plexus::KernelArgument::of_allocation(out)};
      queue->launch(module->kernel(kernel.name), range, arguments);  // warm-up
      queue->wait();
      std::vector<double> seconds;
      for (long rep = 0; rep < options.at("reps"); ++rep) {
        const auto start = bench::clock::now();
        queue->launch(module->kernel(kernel.name), range, arguments);
        queue->wait();
        seconds.push_back(bench::seconds_since(start));
      }
      queue->copy_to_host(output.data(), out, whole);
      queue->wait();
      target.device->deallocate(in);
      target.device->deallocate(out);
      // The host run (first target) is the reference; the others must agree closely.
      std::size_t wrong = 0;
      if (t == 0) {
        reference = output;
      } else {
        for (std::size_t i = 0; i < n; ++i)
          if (!(std::fabs(output[i] - reference[i]) <= 1e-4f * (1.0f + std::fabs(reference[i]))))
            ++wrong;
      }
      // convert_casts computes what convert does, with scalar casts; group_sum_local what
      // group_sum does (in another order of additions).
      if (t == 0 && (std::string(kernel.name) == "convert" || std::string(kernel.name) == "group_sum"))
        converted = output;
      if (std::string(kernel.name) == "convert_casts" && !converted.empty())
        for (std::size_t i = 0; i < n; ++i) wrong += output[i] != converted[i];
      if (std::string(kernel.name) == "group_sum_local" && !converted.empty())
        for (std::size_t i = 0; i < n; ++i)
          wrong += !(std::fabs(output[i] - converted[i]) <= 1e-3f * (1.0f + std::fabs(converted[i])));
      ok &= wrong == 0;
      const double median = bench::median(seconds);
      std::cout << std::fixed << std::setprecision(2) << median * 1e3 << " ms, "
                << static_cast<double>(n) / median / 1e6 << " M elements/s"
                << (wrong ? "  WRONG: " + std::to_string(wrong) + " elements differ" : "") << "\n";
    }
  }
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-builtins: " << e.what() << "\n";
  return 1;
}
