// Vector add: c = a + b over n floats on the first device, checked element by element.
//   vector_add [--n ELEMENTS] [--device I]
#include <chrono>
#include <cmath>
#include <iostream>
#include <vector>

#include "../common/example_options.hpp"

namespace {

const char* const source = R"(
__kernel void vector_add(__global const float* a, __global const float* b,
                         __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

}  // namespace

int main(int argc, char** argv) try {
  const examples::Options options(argc, argv, {{"n", 1 << 20}, {"device", 0}});
  const std::size_t n = options["n"];
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.5f;
    b[i] = static_cast<float>((i * 7) % 1000) * 0.25f;
  }

  plexus::Runtime runtime;
  plexus::Queue queue = runtime.queue(examples::pick_device(runtime, options["device"]));
  plexus::Kernel kernel = runtime.build(source).kernel("vector_add");
  plexus::Buffer<float> da(a.data(), n), db(b.data(), n), dc(n);
  const auto start = std::chrono::steady_clock::now();
  queue.submit([&](plexus::Handler& h) {
    h.parallel_for(kernel, plexus::Range{n}, da.access(h, plexus::read),
                   db.access(h, plexus::read), dc.access(h, plexus::discard_write));
  });
  dc.copy_to(c.data());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (std::size_t i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) {
      std::cerr << "vector_add: WRONG at " << i << ": " << c[i] << " != " << a[i] + b[i] << "\n";
      return 1;
    }
  }
  std::cout << "vector_add: " << n << " elements on " << examples::describe(runtime, queue.device())
            << " in " << seconds * 1e3 << " ms, bytes moved " << runtime.memory_report().bytes()
            << ": verified" << std::endl;
  return 0;
} catch (const std::exception& e) {
  std::cerr << "vector_add: " << e.what() << "\n";
  return 1;
}
