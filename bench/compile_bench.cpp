// plexus-bench-compile: time per kernel compile for compiler components side by side.
//
// Every variant is a config (a compiler component and its options, with or without a
// cache store); each repetition compiles every kernel for every target once per variant,
// interleaved (A B C, A B C, ...) so that machine drift affects all alike. Prints one
// Markdown table of medians (and min/max) in milliseconds with the ratios to the first
// variant. Warm variants are compiled once before timing. "Fresh" variants compile each
// sample in a runtime made for it (outside the timed call): nothing the compiler keeps
// between compiles (the precompiled SYCL headers) is there yet. A second table gives the
// CPU time of the same compiles (this process and its child processes, user + system):
// what the machine's load does not inflate.
//
//   plexus-bench-compile [--reps N] [--kernels DIR] [--targets spirv,ptx,...]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "bench_support.hpp"
#include "kernel_set.hpp"
#include "plexus/compiler.hpp"
#include "plexus/error.hpp"
#include "plexus/runtime.hpp"

namespace {

namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

struct Variant {
  std::string label;
  std::string config;  // TOML
  bool warm;           // compile once before timing
  bool fresh = false;  // a new runtime (and compiler) for every sample
};

const std::vector<Variant> variants = {
    {"clang (in-memory, cold)",
     "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\n", false},
    {"process (child processes)", "[compiler]\nuse = \"process\"\n", false},
    {"clang, warm frontend cache",
     "[cache]\nuse = \"memory\"\n[compiler]\nuse = \"clang\"\n"
     "[compiler.clang]\nbinary_cache = false\n",
     true},
    {"clang, warm binary cache", "[cache]\nuse = \"memory\"\n[compiler]\nuse = \"clang\"\n", true},
    // SYCL sources: without the precompiled <sycl/sycl.hpp>, and with its build timed.
    {"clang, cold, no SYCL PCH",
     "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\nsycl_pch = false\n",
     false},
    {"clang, cold, SYCL PCH built too",
     "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\n", false, true},
    // SYCL sources: the collectives compiled from the headers, not the precompiled library.
    {"clang, cold, no precompiled collectives",
     "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\n"
     "sycl_collectives = false\n",
     false},
    // The first compile of a process without the build's libraries (sycl_collectives_dir =
    // ""): the PCH and the collectives library built in the timed call, as for a command line
    // the build made none for; and the same without the library (the headers' collectives).
    {"clang, cold, PCH and collectives built too",
     "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\n"
     "sycl_collectives_dir = \"\"\n",
     false, true},
    {"clang, cold, PCH built too, no precompiled collectives",
     "[compiler]\nuse = \"clang\"\n[compiler.clang]\nfrontend_cache = false\n"
     "sycl_collectives = false\n",
     false, true},
};

// CPU time (user + system) of this process and of its waited-for children, in ms.
double cpu_ms() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage usage{};
    getrusage(who, &usage);
    for (const timeval& t : {usage.ru_utime, usage.ru_stime})
      total += static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
  }
  return total;
}

// samples[kernel][target][variant]: the times of one measure (wall or CPU).
using Samples =
    std::map<std::string, std::map<plexus::BinaryFormat, std::vector<std::vector<double>>>>;

// A ratio column: the median of variant `over` divided by that of variant `under`.
struct Ratio {
  const char* label;
  std::size_t over, under;
};
const std::vector<Ratio> ratios = {
    {"process / clang", 1, 0},
    {"clang / warm frontend", 0, 2},
    {"clang / warm binary", 0, 3},
    {"process / clang no PCH", 1, 4},
    {"process / clang PCH built too", 1, 5},
    {"process / clang no precompiled collectives", 1, 6},
    {"process / clang PCH and collectives built too", 1, 7},
    {"process / clang PCH built too, no precompiled collectives", 1, 8},
};

void print_table(const Samples& samples, const char* unit) {
  std::cout << "| kernel | target |";
  for (const auto& variant : variants) std::cout << ' ' << variant.label << ' ' << unit << " |";
  for (const auto& ratio : ratios) std::cout << ' ' << ratio.label << " |";
  std::cout << "\n|---|---|";
  for (std::size_t v = 0; v < variants.size() + ratios.size(); ++v) std::cout << "---|";
  std::cout << '\n' << std::fixed << std::setprecision(2);
  for (const auto& [kernel, by_target] : samples) {
    for (const auto& [target, per_variant] : by_target) {
      std::vector<double> medians;
      std::cout << "| " << kernel << " | " << plexus::to_string(target) << " |";
      for (const auto& times : per_variant) {
        medians.push_back(bench::median(times));
        std::cout << ' ' << medians.back() << " (" << *std::min_element(times.begin(), times.end())
                  << "–" << *std::max_element(times.begin(), times.end()) << ") |";
      }
      std::cout << std::setprecision(1);
      for (const auto& ratio : ratios)
        std::cout << ' ' << medians[ratio.over] / medians[ratio.under] << "× |";
      std::cout << std::setprecision(2) << '\n';
    }
  }
}

std::vector<plexus::BinaryFormat> parse_targets(const std::string& list) {
  std::vector<plexus::BinaryFormat> targets;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    auto format = plexus::parse_binary_format(name);
    if (!format) {
      throw plexus::error(plexus::error_category::invalid_argument,
                          "unknown target '" + name + "' (spirv, spir-bitcode, ptx, llvm-bitcode, amdgcn)");
    }
    targets.push_back(*format);
  }
  return targets;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 10;
  fs::path kernel_dir = fs::path(PLEXUS_SOURCE_DIR) / "bench" / "kernels";
  std::string target_list = "spirv,spir-bitcode,ptx,llvm-bitcode,amdgcn";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--reps" && i + 1 < argc) {
      reps = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--kernels" && i + 1 < argc) {
      kernel_dir = argv[++i];
    } else if (arg == "--targets" && i + 1 < argc) {
      target_list = argv[++i];
    } else {
      std::cerr << "usage: plexus-bench-compile [--reps N] [--kernels DIR] [--targets LIST]\n";
      return 2;
    }
  }
  try {
    const auto requests = bench::load_kernels(kernel_dir);
    const auto targets = parse_targets(target_list);
    const auto make_runtime = [](const Variant& variant) {
      return std::make_unique<plexus::Runtime>(
          plexus::Config::from_string("[log]\nlevel = \"warn\"\n" + variant.config, variant.label));
    };
    std::vector<std::unique_ptr<plexus::Runtime>> runtimes;
    for (const auto& variant : variants) runtimes.push_back(make_runtime(variant));
    Samples samples, cpu_samples;
    double cpu_used = 0;  // of the last compile
    auto compile = [&](std::size_t v, plexus::CompileRequest request, plexus::BinaryFormat target) {
      request.target = target;
      if (variants[v].fresh) {
        runtimes[v].reset();
        runtimes[v] = make_runtime(variants[v]);
      }
      const double cpu_start = cpu_ms();
      auto start = clock_type::now();
      plexus::CompileResult result = runtimes[v]->components().compiler()->compile(request);
      auto end = clock_type::now();
      cpu_used = cpu_ms() - cpu_start;
      if (!result.succeeded) {
        throw plexus::error(plexus::error_category::build,
                            variants[v].label + ": " + request.source_name + " failed:\n" + result.log);
      }
      return std::chrono::duration<double, std::milli>(end - start).count();
    };
    for (std::size_t v = 0; v < variants.size(); ++v) {
      if (!variants[v].warm) continue;
      for (const auto& request : requests) {
        for (auto target : targets) compile(v, request, target);
      }
    }
    for (int rep = 0; rep < reps; ++rep) {
      for (const auto& request : requests) {
        for (auto target : targets) {
          auto& per_variant = samples[request.source_name][target];
          auto& cpu_per_variant = cpu_samples[request.source_name][target];
          per_variant.resize(variants.size());
          cpu_per_variant.resize(variants.size());
          for (std::size_t v = 0; v < variants.size(); ++v) {
            per_variant[v].push_back(compile(v, request, target));
            cpu_per_variant[v].push_back(cpu_used);
          }
        }
      }
    }

    std::cout << "Wall time:\n\n";
    print_table(samples, "ms");
    std::cout << "\nCPU time (this process and its child processes):\n\n";
    print_table(cpu_samples, "CPU ms");
    std::cout << "\n" << reps << " repetitions per cell (median, then min–max), interleaved.\n";
    return 0;
  } catch (const std::exception& failure) {
    std::cerr << "plexus-bench-compile: " << failure.what() << '\n';
    return 1;
  }
}
