// Host-access round trips: a loop of one tiny kernel (read-modify-write of a 64-element
// buffer) followed by a host access that reads the buffer back, under the inorder, dag and
// heft schedulers on the host device and on PoCL. Each iteration waits for the host access,
// so it measures the submit -> data-on-the-host path; under dag and heft the host access
// runs on the submitting thread (Task::submitter_waits) when its kernel is done at submission
// (not on a worker that has to be woken and then wake the submitter). Median microseconds per
// iteration over the rounds; rounds interleave the variants, each after a 2 ms sleep (as
// plexus-bench-chain).
//   plexus-bench-host-access [--iterations 2000] [--rounds 5] [--host-only 0]
#include <iomanip>
#include <thread>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

namespace {

const char* const source = "__kernel void bump(__global int* x) { x[get_global_id(0)] += 1; }";
constexpr std::size_t elements = 64;

// Microseconds per kernel + host access on `device` of `runtime`.
double round_trips(plexus::Runtime& runtime, plexus::Device& device, std::size_t iterations) {
  plexus::Queue queue = runtime.queue(device);
  const plexus::Kernel kernel = runtime.build(source).kernel("bump");
  plexus::Buffer<int> buffer(std::vector<int>(elements, 0).data(), elements);
  int last = 0;
  const auto start = bench::clock::now();
  for (std::size_t i = 0; i < iterations; ++i) {
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, plexus::Range{elements}, buffer.access(h, plexus::read_write));
    });
    last = buffer.host_access(plexus::read)[elements - 1];
  }
  const double seconds = bench::seconds_since(start);
  if (last != static_cast<int>(iterations)) throw std::runtime_error("host access: wrong result");
  return seconds * 1e6 / static_cast<double>(iterations);
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options =
      bench::parse_options(argc, argv, {{"iterations", 2000}, {"rounds", 5}, {"host-only", 0}});
  const auto iterations = static_cast<std::size_t>(options.at("iterations"));
  struct Variant {
    std::string name;
    plexus::Runtime* runtime = nullptr;
    plexus::Device* device = nullptr;
    std::vector<double> samples;
  };
  std::vector<std::unique_ptr<plexus::Runtime>> runtimes;
  std::vector<Variant> variants;
  const char* const backends = options.at("host-only") ? "host" : "host,opencl";
  for (const char* scheduler : {"inorder", "dag", "heft"}) {
    plexus::Runtime* runtime = runtimes.emplace_back(std::make_unique<plexus::Runtime>(
        bench::config_with({{"scheduler", scheduler}, {"backends", backends}}))).get();
    for (plexus::Device* device : runtime->devices()) {
      // The host device, and PoCL (an OpenCL CPU device with its own memory).
      const bool pocl =
          !device->shares_host_memory() && device->info().type == plexus::DeviceType::cpu;
      const std::string where = device->shares_host_memory() ? "host" : (pocl ? "PoCL" : "");
      if (!where.empty())
        variants.push_back({std::string(scheduler) + " on " + where, runtime, device, {}});
    }
  }
  for (long round = 0; round <= options.at("rounds"); ++round) {  // round 0 warms up
    for (std::size_t i = 0; i < variants.size(); ++i) {
      Variant& variant = variants[(i + static_cast<std::size_t>(round)) % variants.size()];
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      const double us = round_trips(*variant.runtime, *variant.device, iterations);
      if (round > 0) variant.samples.push_back(us);
    }
  }
  std::cout << "kernel + host access, " << iterations << " iterations, median of "
            << options.at("rounds") << " rounds (us per iteration):\n";
  for (const Variant& variant : variants)
    std::cout << "  " << std::left << std::setw(18) << variant.name << std::right << std::fixed
              << std::setprecision(2) << std::setw(9) << bench::median(variant.samples) << "\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-host-access: " << e.what() << "\n";
  return 1;
}
