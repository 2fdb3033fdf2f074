// Application API with host tasks and host accesses, over every memory policy and both
// schedulers: results, dependencies, uninitialized and discarded data, events.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "runtime_test_support.hpp"

using plexus::test::make_runtime;
using plexus::test::runtime_matrix;

TEST_CASE("host tasks compute through buffers, in order, under every policy and scheduler") {
  for (const auto& choice : runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice);
      plexus::Queue q = rt->queue();
      std::vector<int> input(1000);
      std::iota(input.begin(), input.end(), 0);
      plexus::Buffer<int> a(input.data(), input.size());
      plexus::Buffer<int> b(plexus::Range{1000});

      q.submit([&](plexus::Handler& h) {
        auto in = a.access(h, plexus::read);
        auto out = b.access(h, plexus::discard_write);
        h.host_task([=] {
          for (std::size_t i = 0; i < 1000; ++i) out[i] = in[i] * 2;
        });
      });
      q.submit([&](plexus::Handler& h) {
        auto io = b.access(h, plexus::read_write, plexus::Range{500}, plexus::Range{500});
        h.host_task([=] {
          for (std::size_t i = 500; i < 1000; ++i) io[i] += 1;
        });
      });
      std::vector<int> result(1000);
      b.copy_to(result.data());
      for (std::size_t i = 0; i < 1000; ++i) {
        REQUIRE(result[i] == static_cast<int>(i) * 2 + (i >= 500 ? 1 : 0));
      }
      // The input is unchanged; only host memory was involved: no copies at all.
      auto view = a.host_access(plexus::read);
      CHECK(view[999] == 999);
      CHECK(rt->memory_report().copies() == 0);
    }
  }
}
