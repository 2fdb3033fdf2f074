// Vector-add bandwidth on the host device through Plexus against memcpy on this machine,
// side by side in one run. Bytes counted: vector add reads two arrays and writes one
// (3 x n x 4 bytes); memcpy reads one and writes one (2 x n x 4 bytes). Kernel time is the
// event's start -> end (after the data is resident: the buffers live on the host).
//   plexus-bench-vector-add [--mi 64] [--reps 10]
#include <cstring>
#include <iomanip>
#include <iostream>
#include <vector>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

namespace {

const char* const source = R"(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
})";

}  // namespace

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"mi", 64}, {"reps", 10}});
  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), copy(n);

  plexus::Runtime runtime(bench::config_with({{"backends", "host"}}));
  plexus::Queue queue = runtime.queue();
  const plexus::Kernel kernel = runtime.build(source).kernel("vector_add");
  plexus::Buffer<float> da(a.data(), n), db(b.data(), n), dc(n);

  std::vector<double> plexus_gbs, memcpy_gbs;
  for (long rep = 0; rep <= options.at("reps"); ++rep) {  // rep 0 warms up
    plexus::Event event = queue.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, plexus::Range{n}, da.access(h, plexus::read), db.access(h, plexus::read),
                     dc.access(h, plexus::discard_write));
    });
    event.wait();
    const double kernel_seconds = std::chrono::duration<double>(event.end_time() - event.start_time()).count();
    const auto start = bench::clock::now();
    std::memcpy(copy.data(), a.data(), n * sizeof(float));
    const double memcpy_seconds = bench::seconds_since(start);
    if (rep == 0) continue;
    plexus_gbs.push_back(3.0 * n * sizeof(float) / kernel_seconds / 1e9);
    memcpy_gbs.push_back(2.0 * n * sizeof(float) / memcpy_seconds / 1e9);
  }
  if (dc.host_access(plexus::read)[n - 1] != 3.0f) throw std::runtime_error("wrong result");
  const double p = bench::median(plexus_gbs), m = bench::median(memcpy_gbs);
  std::cout << std::fixed << std::setprecision(2) << "vector add of " << options.at("mi")
            << " Mi floats on '" << queue.device().info().name << "': " << p
            << " GB/s; memcpy: " << m << " GB/s; ratio " << p / m << " (median of "
            << options.at("reps") << ")\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-vector-add: " << e.what() << "\n";
  return 1;
}
