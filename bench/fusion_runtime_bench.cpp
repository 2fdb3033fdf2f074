// plexus-bench-fusion-runtime: kernel fusion through the application API on the host device:
// the same 4-kernel element-wise chain as plexus-bench-fusion (t1 = 2x + 1, t2 = t1 * t1,
// t3 = t2 + 0.5, y = sqrt(t3)) over `--mi` Mi floats, submitted to a queue unfused, and
// fused with start_fusion / complete_fusion({promote_private(t1..t3), no_barriers()}), in
// the same run; each round waits for y on the host. The fused kernel comes from the
// program cache after the first round. Config: the one in force (PLEXUS_CONFIG, ...) with
// backends = host, fusion = llvm, cache = memory. Results checked.
#include <cmath>
#include <iostream>

#include "bench_support.hpp"
#include "kernels/fusion_chain_kernels.hpp"
#include "plexus/plexus.hpp"

int main(int argc, char** argv) try {
  const auto options = bench::parse_options(argc, argv, {{"mi", 16}, {"reps", 5}});
  plexus::Runtime runtime(
      bench::config_with({{"backends", "host"}, {"fusion", "llvm"}, {"cache", "memory"}}));
  plexus::Queue queue = runtime.queue();
  const plexus::KernelBundle bundle = runtime.build(plexus::kernels::fusion_chain_source());
  const std::size_t n = static_cast<std::size_t>(options.at("mi")) << 20;
  std::vector<float> x_host(n);
  for (std::size_t i = 0; i < n; ++i) x_host[i] = static_cast<float>(i % 4096);
  plexus::Buffer<float> x(x_host.data(), n), t1(n), t2(n), t3(n), y(n);
  plexus::Buffer<float>* chain[] = {&x, &t1, &t2, &t3, &y};
  const char* const names[] = {"affine", "square", "shift", "root"};
  const auto submit_chain = [&] {
    for (int k = 0; k < 4; ++k)
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel(names[k]), plexus::Range<1>{n},
                       chain[k]->access(h, plexus::read),
                       chain[k + 1]->access(h, plexus::discard_write));
      });
  };
  const auto check = [&] {
    auto view = y.host_access(plexus::read);
    for (std::size_t i = 0; i < n; i += 4099) {
      const float v = x_host[i];
      if (view.data()[i] != std::sqrt((2.0f * v + 1.0f) * (2.0f * v + 1.0f) + 0.5f)) return false;
    }
    return true;
  };
  std::vector<double> unfused_s, fused_s;
  bool ok = true;
  for (long rep = 0; rep <= options.at("reps"); ++rep) {  // round 0 warms up (build, fuse)
    auto start = bench::clock::now();
    submit_chain();
    ok = check() && ok;
    if (rep > 0) unfused_s.push_back(bench::seconds_since(start));
    start = bench::clock::now();
    queue.start_fusion();
    submit_chain();
    queue.complete_fusion({plexus::promote_private(t1), plexus::promote_private(t2),
                           plexus::promote_private(t3), plexus::no_barriers()});
    ok = check() && ok;
    if (rep > 0) fused_s.push_back(bench::seconds_since(start));
  }
  const auto stats = runtime.program_cache_stats().fused;
  const double gb = 1e-9 * static_cast<double>(n);
  std::cout << "device: " << queue.device().info().name << "\n"
            << "chain of 4 element-wise kernels through the queue, " << options.at("mi")
            << " Mi floats, median of " << options.at("reps") << " (submit to host view):\n"
            << "  unfused: " << bench::median(unfused_s) * 1e3 << " ms ("
            << 32 * gb / bench::median(unfused_s) << " GB/s of 32 B/element)\n"
            << "  fused:   " << bench::median(fused_s) * 1e3 << " ms ("
            << 8 * gb / bench::median(fused_s) << " GB/s of 8 B/element)"
            << (ok ? "" : "  WRONG RESULT") << "\n"
            << "  speed-up " << bench::median(unfused_s) / bench::median(fused_s)
            << "x; fusion cache: " << stats.builds << " build, " << stats.hits << " hits\n";
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "plexus-bench-fusion-runtime: " << e.what() << "\n";
  return 1;
}
