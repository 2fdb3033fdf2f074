// Program cache: building the benchmark kernel set (bench/kernels, for the host, PTX and
// SPIR-V) cold (empty persistent cache), warm from the persistent cache in a new process
// (cache/disk and cache/sqlite side by side), and as an in-memory hit of the runtime's
// program cache (Runtime::build of a source already built).
//
// Cold and warm runs are child processes (this program with --child), interleaved per
// repetition; each times only its compiles (not process start or plugin loading).
//   plexus-bench-program-cache [--reps 5] [--hits 200000]
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"
#include "kernel_set.hpp"

namespace {

namespace fs = std::filesystem;

const std::vector<plexus::BinaryFormat> targets = {
    plexus::BinaryFormat::llvm_bitcode, plexus::BinaryFormat::ptx, plexus::BinaryFormat::spirv};

std::string store_config(const std::string& store, const fs::path& dir) {
  std::string config = "[cache]\nuse = \"" + store + "\"\n";
  if (store == "disk") config += "[cache.disk]\nroot = \"" + (dir / "disk").string() + "\"\n";
  if (store == "sqlite") config += "[cache.sqlite]\npath = \"" + (dir / "cache.sqlite").string() + "\"\n";
  return config + "[compiler]\nuse = \"clang\"\n[backends]\nuse = []\n";
}

// In the child: compiles the set once through `store` under `dir`; prints the milliseconds
// and how many compiles hit the binary cache.
int child(const std::string& store, const fs::path& dir) {
  plexus::Runtime runtime(plexus::Config::from_string(store_config(store, dir), "bench.toml"));
  plexus::Compiler& compiler = *runtime.components().compiler();
  const auto requests = bench::load_kernels(fs::path(PLEXUS_SOURCE_DIR) / "bench" / "kernels");
  std::size_t hits = 0, compiles = 0;
  const auto start = bench::clock::now();
  for (plexus::CompileRequest request : requests)
    for (plexus::BinaryFormat target : targets) {
      request.target = target;
      const plexus::CompileResult result = compiler.compile(request);
      if (!result.succeeded) throw std::runtime_error(request.source_name + ": " + result.log);
      hits += result.binary_cache_hit;
      ++compiles;
    }
  std::cout << bench::seconds_since(start) * 1e3 << " " << hits << " " << compiles << "\n";
  return 0;
}

struct ChildResult {
  double milliseconds = 0;
  std::size_t hits = 0, compiles = 0;
};

ChildResult run_child(const std::string& store, const fs::path& dir) {
  const std::string command = "'" + fs::read_symlink("/proc/self/exe").string() + "' --child " +
                              store + " '" + dir.string() + "'";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot start " + command);
  ChildResult result;
  const int read = std::fscanf(pipe, "%lf %zu %zu", &result.milliseconds, &result.hits, &result.compiles);
  if (::pclose(pipe) != 0 || read != 3) throw std::runtime_error("child failed: " + command);
  return result;
}

// Median nanoseconds of one Runtime::build hit, over batches of 1000.
double in_memory_hit_ns(long hits) {
  plexus::Runtime runtime(bench::config_with({{"cache", "memory"}, {"backends", "host"}}));
  const auto requests = bench::load_kernels(fs::path(PLEXUS_SOURCE_DIR) / "bench" / "kernels");
  const auto saxpy = std::find_if(requests.begin(), requests.end(), [](const auto& request) {
    return request.source_name == "saxpy.cl";  // a kernel without includes
  });
  if (saxpy == requests.end()) throw std::runtime_error("bench/kernels/saxpy.cl is missing");
  const std::string& source = saxpy->source;
  runtime.build(source);
  std::vector<double> batches;
  for (long done = 0; done < hits; done += 1000) {
    const auto start = bench::clock::now();
    for (int i = 0; i < 1000; ++i) runtime.build(source);
    batches.push_back(bench::seconds_since(start) * 1e9 / 1000);
  }
  return bench::median(batches);
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc == 4 && std::string(argv[1]) == "--child") return child(argv[2], argv[3]);
  const auto options = bench::parse_options(argc, argv, {{"reps", 5}, {"hits", 200000}});
  std::map<std::string, std::vector<double>> cold, warm;
  std::size_t compiles = 0;
  for (long rep = 0; rep < options.at("reps"); ++rep) {
    for (const std::string store : {"disk", "sqlite"}) {
      const fs::path dir = fs::temp_directory_path() / ("plexus-bench-cache-" + std::to_string(::getpid()));
      fs::remove_all(dir);
      const ChildResult first = run_child(store, dir), second = run_child(store, dir);
      fs::remove_all(dir);
      if (first.hits != 0 || second.hits != second.compiles)
        throw std::runtime_error(store + ": the warm run did not hit every compile");
      cold[store].push_back(first.milliseconds);
      warm[store].push_back(second.milliseconds);
      compiles = first.compiles;
    }
  }
  const double hit_ns = in_memory_hit_ns(options.at("hits"));
  std::cout << std::fixed << std::setprecision(2) << "| store | cold ms | warm (new process) ms | cold / warm |\n|---|---|---|---|\n";
  for (const std::string store : {"disk", "sqlite"}) {
    const double c = bench::median(cold[store]), w = bench::median(warm[store]);
    std::cout << "| " << store << " | " << c << " | " << w << " | " << std::setprecision(0) << c / w
              << "x |\n" << std::setprecision(2);
  }
  std::cout << "\n" << compiles << " compiles per run (" << targets.size() << " targets), "
            << options.at("reps") << " repetitions, medians.\n"
            << "In-memory program cache hit (Runtime::build of a built source): " << hit_ns
            << " ns median per call.\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-program-cache: " << e.what() << "\n";
  return 1;
}
