// Cost of tracing on the launch path: a chain of tiny kernels (each read-modify-writes the
// same 64 ints, so each depends on the one before) through Plexus with the inorder scheduler,
// with tracing off, with tracing on (PLEXUS_TRACE's [trace] file), and, when
// PLEXUS_BENCH_TRACE_COMPILED_OUT names a plexus-bench-trace built with
// -DPLEXUS_TRACE_HOOKS=OFF (the hooks compiled out of libplexus-core), with no hooks at all.
// Each sample is a child process (a fresh runtime: the tracer is process-wide), and rounds
// alternate the variants (off, on, compiled out, off, on, ...) so drift hits all of them;
// round 0 warms up. Per kernel: the submission loop (submit() returning) and submit ->
// wait() done, in wall time, and the process's CPU time (all threads) of submit -> done,
// which a machine busy with other work disturbs less; medians, min-max, ratios to "off".
//   plexus-bench-trace [--kernels 5000] [--rounds 11] [--pocl 0|1: PoCL instead of the host]
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

namespace {

const char* const source = "__kernel void bump(__global int* x) { x[get_global_id(0)] += 1; }";
constexpr std::size_t elements = 64;

struct Sample {
  double submit_s = 0, complete_s = 0, cpu_s = 0;  // per kernel
};

double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// The chain run by one child: `trace_file` empty is tracing off.
Sample chain(std::size_t kernels, bool pocl, const std::string& trace_file) {
  std::vector<std::pair<std::string, std::string>> selections = {
      {"scheduler", "inorder"}, {"backends", pocl ? "opencl" : "host"}, {"log.level", "warn"},
      {"graphs.auto", "false"}};  // each kernel's own launch path: automatic replay off
  if (!trace_file.empty()) selections.emplace_back("trace.file", trace_file);
  plexus::Runtime runtime(bench::config_with(selections));
  plexus::Device* device = nullptr;
  for (plexus::Device* each : runtime.devices())
    if (each->shares_host_memory() != pocl) device = each;
  if (!device) throw std::runtime_error(pocl ? "no PoCL device" : "no host device");
  plexus::Queue queue = runtime.queue(*device);
  const plexus::Kernel kernel = runtime.build(source).kernel("bump");
  plexus::Buffer<int> buffer(std::vector<int>(elements, 0).data(), elements);
  auto run = [&](std::size_t count) {
    for (std::size_t k = 0; k < count; ++k)
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(kernel, plexus::Range{elements}, buffer.access(h, plexus::read_write));
      });
  };
  run(kernels / 10 + 1);  // warm-up: JIT, first allocations, timing calibration
  queue.wait();
  const double cpu_start = process_cpu_seconds();
  const auto start = bench::clock::now();
  run(kernels);
  const double submitted = bench::seconds_since(start);
  queue.wait();
  const double completed = bench::seconds_since(start);
  const double cpu = process_cpu_seconds() - cpu_start;
  if (buffer.host_access(plexus::read)[elements - 1] !=
      static_cast<int>(kernels + kernels / 10 + 1))
    throw std::runtime_error("wrong result");
  const auto count = static_cast<double>(kernels);
  return {submitted / count, completed / count, cpu / count};
}

// Runs `command` and reads the child's "submit complete cpu" line.
std::optional<Sample> run_child(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  Sample sample;
  const int read =
      std::fscanf(pipe, "%lf %lf %lf", &sample.submit_s, &sample.complete_s, &sample.cpu_s);
  const int status = pclose(pipe);
  if (read != 3 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return sample;
}

struct Variant {
  std::string name, command;
  std::vector<double> submit, complete, cpu;
};

std::string spread(const std::vector<double>& values) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  std::ostringstream out;
  out << std::fixed << std::setprecision(3) << bench::median(values) * 1e6 << " (" << *low * 1e6
      << "-" << *high * 1e6 << ")";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc == 6 && std::string(argv[1]) == "--child") {  // --child KERNELS POCL TRACE_FILE|- OUT
    const std::string file = argv[4];
    const Sample sample =
        chain(std::stoul(argv[2]), std::string(argv[3]) == "1", file == "-" ? "" : file);
    if (file != "-" && !std::filesystem::exists(file))
      throw std::runtime_error("tracing on, but no trace was written");
    std::printf("%.9f %.9f %.9f\n", sample.submit_s, sample.complete_s, sample.cpu_s);
    return 0;
  }
  unsetenv("PLEXUS_TRACE");  // it would trace the "off" children too
  const auto options =
      bench::parse_options(argc, argv, {{"kernels", 5000}, {"rounds", 11}, {"pocl", 0}});
  // parse_options takes positive values only: --pocl 1 picks PoCL, anything else the host.
  const bool pocl = options.at("pocl") == 1;
  const std::string args =
      " --child " + std::to_string(options.at("kernels")) + " " + (pocl ? "1" : "0") + " ";
  const std::string trace_file = (std::filesystem::temp_directory_path() /
                                  ("plexus-bench-trace-" + std::to_string(getpid()) + ".json"))
                                     .string();
  std::vector<Variant> variants = {
      {"tracing off", std::string(argv[0]) + args + "- x", {}, {}, {}},
      {"tracing on", std::string(argv[0]) + args + trace_file + " x", {}, {}, {}}};
  if (const char* other = std::getenv("PLEXUS_BENCH_TRACE_COMPILED_OUT"))
    variants.push_back({"hooks compiled out", std::string(other) + args + "- x", {}, {}, {}});
  for (long round = 0; round <= options.at("rounds"); ++round) {  // round 0 warms up
    for (Variant& variant : variants) {
      const auto sample = run_child(variant.command);
      if (!sample)
        throw std::runtime_error(variant.name + ": the child failed: " + variant.command);
      if (round == 0) continue;
      variant.submit.push_back(sample->submit_s);
      variant.complete.push_back(sample->complete_s);
      variant.cpu.push_back(sample->cpu_s);
    }
  }
  std::filesystem::remove(trace_file);
  std::filesystem::remove(trace_file.substr(0, trace_file.size() - 5) + ".summary.json");
  std::cout << "chain of " << options.at("kernels") << " tiny kernels on "
            << (pocl ? "PoCL" : "the host device") << " (inorder), " << options.at("rounds")
            << " rounds alternating the variants, one process each; microseconds per kernel, "
               "median (min-max):\n";
  const Variant& off = variants[0];
  std::cout << std::fixed << std::setprecision(3);
  for (const Variant& variant : variants) {
    std::cout << "  " << std::left << std::setw(19) << variant.name << " submit "
              << spread(variant.submit) << "  submit->done " << spread(variant.complete) << "  cpu "
              << spread(variant.cpu) << "\n  " << std::setw(19) << ""
              << " ratio to off: submit "
              << bench::median(variant.submit) / bench::median(off.submit) << ", submit->done "
              << bench::median(variant.complete) / bench::median(off.complete) << ", cpu "
              << bench::median(variant.cpu) / bench::median(off.cpu) << "\n";
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-trace: " << e.what() << "\n";
  return 1;
}
