// plexus-bench-isolation: what plexus::run_isolated costs (the fork that keeps LLVM's
// bitcode reader and the SPIR-V translator from ending the process, issue 15): the time of
// an isolated call that does nothing and of one that sends 1 MiB back, against the same
// work in process, as the caller's resident memory grows (fork copies its page tables).
//
//   plexus-bench-isolation [--reps 200] [--max-mib 4096]
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>

#include "bench_support.hpp"
#include "plexus/isolated_call.hpp"

int main(int argc, char** argv) {
  const auto options = bench::parse_options(argc, argv, {{"reps", 200}, {"max-mib", 4096}});
  const long reps = options.at("reps");
  std::vector<std::unique_ptr<char[]>> ballast;
  long resident_mib = 0;
  std::cout << "| caller's extra resident memory | in process, empty | isolated, empty | "
               "isolated, 1 MiB back |\n|---|---|---|---|\n";
  for (long target_mib : {0L, 256L, 1024L, 4096L}) {
    if (target_mib > options.at("max-mib")) break;
    while (resident_mib < target_mib) {  // touched, so it is resident and forked
      ballast.emplace_back(new char[1 << 20]);
      std::memset(ballast.back().get(), 1, 1 << 20);
      ++resident_mib;
    }
    std::vector<double> local, empty, megabyte;
    for (long rep = 0; rep < reps; ++rep) {
      std::string output, message;
      auto start = bench::clock::now();
      const auto step = [](std::string& out, std::string&) {
        out.clear();
        return true;
      };
      step(output, message);
      local.push_back(bench::seconds_since(start));
      start = bench::clock::now();
      if (!plexus::run_isolated(step).succeeded) return 1;
      empty.push_back(bench::seconds_since(start));
      start = bench::clock::now();
      const auto result = plexus::run_isolated([](std::string& out, std::string&) {
        out.assign(1 << 20, 'x');
        return true;
      });
      if (result.output.size() != (1u << 20)) return 1;
      megabyte.push_back(bench::seconds_since(start));
    }
    std::cout << std::fixed << std::setprecision(3) << "| " << target_mib << " MiB | "
              << bench::median(local) * 1e3 << " ms | " << bench::median(empty) * 1e3 << " ms | "
              << bench::median(megabyte) * 1e3 << " ms |\n";
  }
  std::cout << reps << " repetitions per cell, medians\n";
  return 0;
}
