// Two devices with their own memory (PoCL with POCL_DEVICES="pthread pthread": locations 1
// and 2): data written on one and read on the other moves device -> device (staged through
// the buffer's host copy), under every memory policy and both schedulers.
#include <catch2/catch.hpp>

#include <vector>

#include "runtime_test_support.hpp"

namespace {

const char* const kernels = R"(
__kernel void add(__global int* v, int amount) { v[get_global_id(0)] += amount; }
)";

}  // namespace

TEST_CASE("data written on one device and used on another moves device to device") {
  // Read by PoCL when the platform is first opened: this process has not opened it yet.
  plexus::test::ScopedEnv devices("POCL_DEVICES", std::string("pthread pthread"));
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = plexus::test::make_runtime(choice, "\"opencl\"");
      std::vector<plexus::Device*> own;
      for (plexus::Device* device : rt->devices()) {
        if (!device->shares_host_memory()) own.push_back(device);
      }
      REQUIRE(own.size() >= 2);
      REQUIRE(rt->location_of(*own[0]) == 1);
      REQUIRE(rt->location_of(*own[1]) == 2);
      auto bundle = rt->build(kernels);
      plexus::Queue first = rt->queue(*own[0]), second = rt->queue(*own[1]);
      constexpr std::size_t n = 512;
      std::vector<int> host(n, 1);
      plexus::Buffer<int> data(host.data(), n, {.page_extent = {128, 1, 1}});
      auto on_first = first.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("add"), plexus::Range{n}, data.access(h, plexus::read_write),
                       10);
      });
      // The second device updates the upper half only: the memory model moves that part.
      second.submit([&](plexus::Handler& h) {
        h.depends_on(on_first);
        h.parallel_for(bundle.kernel("add"),
                       plexus::nd_range(plexus::Range{n / 2}, plexus::Range{64},
                                        plexus::Range{n / 2}),
                       data.access(h, plexus::read_write, plexus::Range{n / 2},
                                   plexus::Range{n / 2}),
                       100);
      });
      data.copy_to(host.data());
      for (std::size_t i = 0; i < n; ++i) REQUIRE(host[i] == (i < n / 2 ? 11 : 111));
      const auto stats = rt->memory_report();
      const auto across = stats.between(1, 2);
      CHECK(across.copies == 1);
      if (choice.memory == "whole") {
        CHECK(across.bytes == n * sizeof(int));
      } else {
        CHECK(across.bytes == n / 2 * sizeof(int));
      }
      CHECK(stats.between(0, 2).bytes == 0);  // the host copy was outdated: not a source
      INFO(rt->memory_report_text());
      CHECK_THAT(rt->memory_report_text(), Catch::Contains("1 (") && Catch::Contains("-> 2 ("));
    }
  }
}
