// Device -> device copy bandwidth, between every pair of devices with their own memory, in
// both directions: through the runtime (a task on one device writes a buffer, a task on the
// other then reads and writes it, so the memory model moves the whole buffer; the time is
// that task's submit -> wait, its kernel touching one element), with how the runtime ran the
// copies (MemoryStats::device_copies: direct, staged, page-locked); and, on allocations of
// the same devices, the raw device operations: the staging the runtime did before (
// copy_to_host into pageable memory, wait, copy_to_device, wait) and a direct
// copy_from_device where the pair has one; last, a copy within each device.
//   PLEXUS_BACKENDS=cuda,opencl plexus-bench-device-copy [--own-contexts] [--mi 256] [--reps 5]
// --own-contexts: the opencl backend's devices get a context each (no direct path between
// them: the runtime stages), instead of one per platform.
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <plexus/plexus.hpp>

#include "bench_support.hpp"

namespace {

const char* const source = R"(
__kernel void touch(__global int* v) { v[0] += 1; }
)";

plexus::Config bench_config(bool share) {
  const char* chosen = std::getenv("PLEXUS_BACKENDS");
  std::string list, names = chosen && *chosen ? chosen : "opencl";
  std::stringstream split(names);
  for (std::string name; std::getline(split, name, ',');)
    list += (list.empty() ? "\"" : ", \"") + name + "\"";
  return plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [" + list + "]\nskip_missing = true\n" +
          "[backends.opencl]\nshare_context = " + (share ? "true" : "false") + "\n" +
          "[scheduler]\nuse = \"inorder\"\n[memory]\nuse = \"exact\"\n"
          "[compiler]\nuse = \"clang\"\n[cache]\nuse = \"memory\"\n",
      "device-copy-bench.toml");
}

double gbs(std::size_t bytes, double seconds) { return bytes / seconds / 1e9; }

std::string describe(const plexus::DeviceCopyStats& before, const plexus::DeviceCopyStats& after) {
  std::ostringstream text;
  text << after.direct_copies - before.direct_copies << " direct, "
       << after.staged_copies - before.staged_copies << " staged ("
       << (after.pinned_staged_bytes > before.pinned_staged_bytes ? "page-locked" : "pageable")
       << ")";
  return text.str();
}

// Median seconds of `reps` runs of `copy` (one warm-up run first).
template <class Copy>
double time_median(long reps, Copy copy) {
  std::vector<double> seconds;
  for (long rep = 0; rep <= reps; ++rep) {
    const auto start = bench::clock::now();
    copy();
    if (rep > 0) seconds.push_back(bench::seconds_since(start));
  }
  return bench::median(seconds);
}

void raw_copies(plexus::Device& a, plexus::Device& b, std::size_t bytes, long reps) {
  void* from = a.allocate(bytes);
  void* to = b.allocate(bytes);
  const auto qa = a.create_queue();
  const auto qb = b.create_queue();
  const plexus::CopyLayout all = plexus::CopyLayout::contiguous(0, bytes);
  std::vector<char> pageable(bytes, 1);
  qa->copy_to_device(from, pageable.data(), all);
  qa->wait();
  const double staged = time_median(reps, [&] {
    qa->copy_to_host(pageable.data(), from, all);
    qa->wait();
    qb->copy_to_device(to, pageable.data(), all);
    qb->wait();
  });
  std::cout << "    raw staged through pageable memory (the runtime before): " << gbs(bytes, staged)
            << " GB/s\n";
  if (qb->copy_from_device(to, a, from, all)) {
    qb->wait();
    const double direct = time_median(reps, [&] {
      qb->copy_from_device(to, a, from, all);
      qb->wait();
    });
    std::cout << "    raw direct copy_from_device: " << gbs(bytes, direct) << " GB/s\n";
  } else {
    std::cout << "    raw direct copy_from_device: no direct path\n";
  }
  a.deallocate(from);
  b.deallocate(to);
}

void within(plexus::Device& device, std::size_t bytes, long reps) {
  void* from = device.allocate(bytes);
  void* to = device.allocate(bytes);
  const auto queue = device.create_queue();
  const plexus::CopyLayout all = plexus::CopyLayout::contiguous(0, bytes);
  if (queue->copy_from_device(to, device, from, all)) {
    queue->wait();
    const double seconds = time_median(reps, [&] {
      queue->copy_from_device(to, device, from, all);
      queue->wait();
    });
    std::cout << "'" << device.info().name
              << "' within itself (copy_from_device): " << gbs(bytes, seconds)
              << " GB/s (bytes copied per second; read + write is twice)\n";
  }
  device.deallocate(from);
  device.deallocate(to);
}

}  // namespace

int main(int argc, char** argv) try {
  const bool own_contexts = argc > 1 && std::string(argv[1]) == "--own-contexts";
  if (own_contexts) --argc, ++argv;
  const auto options = bench::parse_options(argc, argv, {{"mi", 256}, {"reps", 5}});
  const std::size_t bytes = static_cast<std::size_t>(options.at("mi")) << 20;
  const long reps = options.at("reps");
  plexus::Runtime runtime(bench_config(!own_contexts));
  std::vector<plexus::Device*> devices;
  for (plexus::Device* device : runtime.devices())
    if (!device->shares_host_memory()) devices.push_back(device);
  if (devices.size() < 2) {
    std::cout << "fewer than two devices with their own memory: nothing to measure\n";
    return 0;
  }
  const plexus::Kernel touch = runtime.build(source).kernel("touch");
  std::cout << std::fixed << std::setprecision(2) << options.at("mi") << " MiB per copy, median of "
            << reps << "\n";
  for (std::size_t i = 0; i < devices.size(); ++i) {
    for (std::size_t j = i + 1; j < devices.size(); ++j) {
      plexus::Device& a = *devices[i];
      plexus::Device& b = *devices[j];
      plexus::Queue on_a = runtime.queue(a), on_b = runtime.queue(b);
      std::vector<int> zeros(bytes / sizeof(int), 0);
      plexus::Buffer<int> data(zeros.data(), zeros.size());
      auto step = [&](plexus::Queue& queue) {
        const auto start = bench::clock::now();
        queue
            .submit([&](plexus::Handler& h) {
              h.parallel_for(touch, plexus::Range{1}, data.access(h, plexus::read_write));
            })
            .wait();
        return bench::seconds_since(start);
      };
      step(on_a);  // first valid on a
      const auto before = runtime.memory_report().device_copies;
      std::vector<double> to_b, to_a;
      for (long rep = 0; rep <= reps; ++rep) {
        const double forward = step(on_b), back = step(on_a);
        if (rep == 0) continue;  // warm-up
        to_b.push_back(forward);
        to_a.push_back(back);
      }
      const auto after = runtime.memory_report().device_copies;
      if (data.host_access(plexus::read)[0] != 2 * (reps + 1) + 1)
        throw std::runtime_error("wrong result");
      std::cout << "'" << a.info().name << "' <-> '" << b.info().name << "':\n"
                << "  runtime: -> " << gbs(bytes, bench::median(to_b)) << " GB/s, <- "
                << gbs(bytes, bench::median(to_a)) << " GB/s (" << describe(before, after)
                << ")\n  a -> b:\n";
      raw_copies(a, b, bytes, reps);
      std::cout << "  b -> a:\n";
      raw_copies(b, a, bytes, reps);
    }
  }
  for (plexus::Device* device : devices) within(*device, bytes, reps);
  return 0;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-device-copy: " << e.what() << "\n";
  return 1;
}
