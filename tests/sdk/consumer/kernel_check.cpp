// plexus_sdk_kernels: run by tests/sdk/out_of_tree.sh against an installed Plexus, once per
// SDK skeleton, with a config that selects the skeleton built out of tree.
//
//   plexus_sdk_kernels --config <plexus.toml> --expect <kind> <name>
//
// Checks that the runtime loaded component <name> of <kind> (for backends: that it is
// listed), then runs kernels through it and checks every element of the results: c = a + b,
// then c *= 2 in place (a kernel depending on the first through the buffer), then c read
// back on the host, three rounds; with <kind> fusion the two kernels of a round are
// submitted in a fusion (the skeleton declines to fuse: they run unfused). Exits 1 with a
// message saying what differed or the runtime's error; 77 (skipped) for the compiler
// skeleton without a device (it needs an OpenCL one).
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "plexus/component_kind.hpp"
#include "plexus/config.hpp"
#include "plexus/plexus.hpp"

namespace {

const char* const source = R"(
__kernel void add(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
__kernel void scale(__global float* c, float factor) {
  size_t i = get_global_id(0);
  c[i] = c[i] * factor;
}
)";

int run(const std::string& config, const std::string& kind, const std::string& name) {
  plexus::Runtime runtime(plexus::Config::from_file(config));
  bool selected = false;
  for (const auto& loaded : runtime.components().loaded())
    selected = selected || (to_string(loaded.kind) == kind && loaded.name == name);
  if (!selected) {
    std::cerr << "FAIL: the runtime did not load " << kind << " '" << name << "' from " << config
              << "\n";
    return 1;
  }
  std::cout << "ok: " << kind << " '" << name << "' is loaded\n";
  if (runtime.devices().empty() && kind == "compiler") {  // its config names OpenCL only
    std::cout << "skip: no OpenCL device here for the compiler skeleton's OpenCL C\n";
    return 77;
  }
  const std::size_t n = 4096;
  std::vector<float> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 100) * 0.5f;
    b[i] = static_cast<float>(i % 7) * 0.25f;
  }
  plexus::Queue queue = runtime.queue();
  plexus::KernelBundle bundle = runtime.build(source);
  plexus::Kernel add = bundle.kernel("add"), scale = bundle.kernel("scale");
  plexus::Buffer<float> da(a.data(), n), db(b.data(), n), dc(n);
  for (int round = 0; round < 3; ++round) {
    if (kind == "fusion") queue.start_fusion();
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(add, plexus::Range{n}, da.access(h, plexus::read), db.access(h, plexus::read),
                     dc.access(h, plexus::discard_write));
    });
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(scale, plexus::Range{n}, dc.access(h, plexus::read_write), 2.0f);
    });
    if (kind == "fusion") queue.complete_fusion();
    std::fill(c.begin(), c.end(), -1.0f);
    dc.copy_to(c.data());
    for (std::size_t i = 0; i < n; ++i) {
      if (c[i] != (a[i] + b[i]) * 2.0f) {
        std::cerr << "FAIL: round " << round << ", element " << i << ": " << c[i]
                  << " != " << (a[i] + b[i]) * 2.0f << " (through " << kind << " '" << name
                  << "')\n";
        return 1;
      }
    }
  }
  runtime.wait();
  std::cout << "ok: kernels through " << kind << " '" << name << "' gave the right results\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 || std::string(argv[1]) != "--config" || std::string(argv[3]) != "--expect") {
    std::cerr << "usage: plexus_sdk_kernels --config <plexus.toml> --expect <kind> <name>\n";
    return 2;
  }
  try {
    return run(argv[2], argv[4], argv[5]);
  } catch (const std::exception& e) {
    std::cerr << "FAIL: " << e.what() << "\n";
    return 1;
  }
}
