// Concurrency of the application API under the dag and heft schedulers with device tasks: several
// threads submit kernels (PoCL, and the host device) and host tasks over shared and
// private buffers through out-of-order queues, with host accesses in between. Checks the
// results; built a second time under ThreadSanitizer (label tsan) to find data races in the
// core's command bodies, buffer storage, program cache and both schedulers.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "runtime_test_support.hpp"

namespace {

const char* const kernels = R"(
__kernel void add(__global int* v, int amount) { v[get_global_id(0)] += amount; }
__kernel void copy(__global const int* from, __global int* to) {
  to[get_global_id(0)] = from[get_global_id(0)];
}
)";

// Submits a kernel adding 1 to each of the n elements of `buffer`.
void add_one(plexus::Queue& queue, const plexus::KernelBundle& bundle, plexus::Buffer<int>& buffer,
             std::size_t n) {
  queue.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("add"), plexus::Range{n}, buffer.access(h, plexus::read_write), 1);
  });
}

// Every thread's copy of its own buffer holds `expected` everywhere.
void check_results(const std::vector<std::vector<int>>& results, int expected) {
  for (const auto& result : results) {
    for (int value : result) REQUIRE(value == expected);
  }
}

}  // namespace

TEST_CASE("threads submit kernels and host tasks concurrently under dag and heft") {
  // heft too: it places each kernel itself (on the host device or PoCL, whichever its queue),
  // so data also moves between the threads' devices.
  for (const plexus::test::RuntimeChoice& choice :
       {plexus::test::RuntimeChoice{"dag", "exact"}, {"dag", "paged"}, {"dag", "whole"},
        {"heft", "exact"}, {"heft", "whole"}}) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = plexus::test::make_runtime(choice, "\"host\", \"opencl\"",
                                           "[scheduler." + choice.scheduler + "]\nworkers = 4\n");
      std::vector<plexus::Device*> devices = rt->devices();
      REQUIRE(!devices.empty());
      constexpr std::size_t n = 256;
      constexpr int threads = 3, rounds = 8;
      std::vector<int> zeros(n, 0);
      plexus::Buffer<int> shared(zeros.data(), n);
      std::vector<std::thread> submitters;
      std::vector<std::vector<int>> results(threads, std::vector<int>(n));
      std::vector<int> view_mismatches(threads, 0);  // Catch2 assertions are main-thread only
      for (int t = 0; t < threads; ++t) {
        submitters.emplace_back([&, t] {
          // Every thread builds the same source: the program cache builds it once.
          plexus::KernelBundle bundle = rt->build(kernels);
          plexus::Device* device = devices[std::size_t(t) % devices.size()];
          plexus::Queue q = rt->queue(*device, plexus::QueueOrder::out_of_order);
          plexus::Buffer<int> own(zeros.data(), n);
          for (int r = 0; r < rounds; ++r) {
            add_one(q, bundle, own, n);
            // Each thread owns one slice of the shared buffer.
            q.submit([&](plexus::Handler& h) {
              auto slice = shared.access(h, plexus::read_write, plexus::Range{n / threads},
                                         plexus::Range{std::size_t(t) * (n / threads)});
              h.host_task([=] {
                for (std::size_t i = 0; i < n / threads; ++i) slice[t * (n / threads) + i] += 1;
              });
            });
            if (r % 3 == 0) {
              auto view = own.host_access(plexus::read);
              if (view[0] != r + 1) ++view_mismatches[std::size_t(t)];
            }
          }
          own.copy_to(results[std::size_t(t)].data());
        });
      }
      for (auto& submitter : submitters) submitter.join();
      CHECK(view_mismatches == std::vector<int>(threads, 0));
      check_results(results, rounds);
      auto view = shared.host_access(plexus::read);
      for (std::size_t i = 0; i < threads * (n / threads); ++i) REQUIRE(view[i] == rounds);
      CHECK(rt->program_cache_stats().programs.builds <= 2);  // one per device format
    }
  }
}

TEST_CASE("threads submit kernel chains through in-order queues, one buffer shared by all") {
  // The per-submission path of in-order queues (queue order, the previous task left
  // enqueued, the memory model's record) from several threads at once; each thread's chain
  // also writes its slice of a shared buffer, so the chains depend on each other.
  for (const plexus::test::RuntimeChoice& choice :
       {plexus::test::RuntimeChoice{"inorder", "paged"}, {"inorder", "exact"}, {"dag", "whole"}}) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = plexus::test::make_runtime(choice);
      std::vector<plexus::Device*> devices = rt->devices();
      REQUIRE(!devices.empty());
      constexpr std::size_t n = 96;
      constexpr int threads = 3, rounds = 12;
      std::vector<int> zeros(n, 0);
      plexus::Buffer<int> shared(zeros.data(), n);
      const plexus::KernelBundle bundle = rt->build(kernels);
      std::vector<std::vector<int>> results(threads, std::vector<int>(n));
      std::vector<std::thread> submitters;
      for (int t = 0; t < threads; ++t) {
        submitters.emplace_back([&, t] {
          plexus::Queue q = rt->queue(*devices[std::size_t(t) % devices.size()]);  // in order
          plexus::Buffer<int> own(zeros.data(), n);
          for (int r = 0; r < rounds; ++r) {
            add_one(q, bundle, own, n);
            q.submit([&](plexus::Handler& h) {
              plexus::NdRange slice;  // the thread's slice: global ids from its offset
              slice.global = {n / threads, 1, 1};
              slice.offset = {std::size_t(t) * (n / threads), 0, 0};
              h.parallel_for(bundle.kernel("add"), slice,
                             shared.access(h, plexus::read_write, plexus::Range{n / threads},
                                           plexus::Range{slice.offset[0]}),
                             1);
            });
          }
          q.wait();
          own.copy_to(results[std::size_t(t)].data());
        });
      }
      for (auto& submitter : submitters) submitter.join();
      check_results(results, rounds);
      auto view = shared.host_access(plexus::read);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(view[i] == rounds);
    }
  }
}
