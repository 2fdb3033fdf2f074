// Native task overhead (issue 14): a chain of empty native tasks against a chain of tiny
// kernels on the same device, same process, rounds interleaved. Each task of either chain
// read-modify-writes one 64-element buffer, so it depends on the one before; a native task
// enqueues nothing (the runtime still places it, makes the buffer valid, hands the
// implementation the device's native handles and completes it from its queue). Every device
// of the configured backends (PLEXUS_BACKENDS, e.g. cuda), under inorder and dag.
// The last native task checks the data (the kernels' count must be visible to it).
//   plexus-bench-native-chain [--tasks 2000] [--rounds 5]
#include <iomanip>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

namespace {

const char* const source = "__kernel void bump(__global int* x) { x[get_global_id(0)] += 1; }";
constexpr std::size_t elements = 64;

// Seconds per task of a chain of `tasks` kernels (native = false) or empty native tasks.
double chain(plexus::Runtime& runtime, plexus::Device& device, const plexus::Kernel& kernel,
             std::size_t tasks, bool native) {
  plexus::Queue queue = runtime.queue(device);
  plexus::Buffer<int> buffer(std::vector<int>(elements, 0).data(), elements);
  const auto nothing = [](plexus::InteropHandle&) {};
  const std::vector<plexus::NativeImplementation> empty{
      {"host", nothing}, {"opencl", nothing}, {"cuda", nothing}};
  const auto start = bench::clock::now();
  for (std::size_t t = 0; t < tasks; ++t)
    queue.submit([&](plexus::Handler& h) {
      auto data = buffer.access(h, plexus::read_write);
      if (native) {
        h.native_task("empty", empty);
      } else {
        h.parallel_for(kernel, plexus::Range{elements}, data);
      }
    });
  queue.wait();
  const double seconds = bench::seconds_since(start);
  const int expected = native ? 0 : static_cast<int>(tasks);
  if (buffer.host_access(plexus::read)[elements - 1] != expected)
    throw std::runtime_error("the chain counted wrong");
  return seconds / static_cast<double>(tasks);
}

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"tasks", 2000}, {"rounds", 5}});
  const auto tasks = static_cast<std::size_t>(options.at("tasks"));

  struct Variant {
    std::string name;
    plexus::Runtime* runtime;
    plexus::Device* device;
    plexus::Kernel kernel;
    std::vector<double> kernels, natives;
  };
  std::vector<std::unique_ptr<plexus::Runtime>> runtimes;
  std::vector<Variant> variants;
  for (const char* scheduler : {"inorder", "dag"}) {
    auto& runtime = runtimes.emplace_back(
        std::make_unique<plexus::Runtime>(bench::config_with({{"scheduler", scheduler}})));
    const plexus::KernelBundle bundle = runtime->build(source);
    for (plexus::Device* device : runtime->devices()) {
      variants.push_back({std::string(scheduler) + " on '" + device->info().name + "' (" +
                              std::string(device->native_backend()) + ")",
                          runtime.get(), device, bundle.kernel("bump"), {}, {}});
    }
  }
  for (long round = 0; round <= options.at("rounds"); ++round) {  // round 0 warms up
    for (Variant& v : variants) {
      const double kernel = chain(*v.runtime, *v.device, v.kernel, tasks, false);
      const double native = chain(*v.runtime, *v.device, v.kernel, tasks, true);
      if (round == 0) continue;
      v.kernels.push_back(kernel);
      v.natives.push_back(native);
    }
  }
  std::cout << "chain of " << tasks << " tasks on one buffer, " << options.at("rounds")
            << " rounds, median microseconds per task (range of native/kernel over rounds):\n"
            << std::fixed << std::setprecision(2);
  for (const Variant& v : variants) {
    const double kernel = bench::median(v.kernels), native = bench::median(v.natives);
    double low = 1e300, high = 0.0;
    for (std::size_t r = 0; r < v.kernels.size(); ++r) {
      low = std::min(low, v.natives[r] / v.kernels[r]);
      high = std::max(high, v.natives[r] / v.kernels[r]);
    }
    std::cout << "  " << v.name << ": tiny kernels " << kernel * 1e6 << ", empty native tasks "
              << native * 1e6 << " (" << native / kernel << "x; " << low << "-" << high << "x)\n";
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-native-chain: " << e.what() << "\n";
  return 1;
}
