// sycl_ext_oneapi_work_group_scratch_memory: get_work_group_scratch_memory() in a kernel,
// reached through a helper function, its size given at launch with
// plexus::work_group_scratch_size(bytes) (the kernel's last, hidden __local parameter), with
// USM on the host device, PoCL and, on the GPU machine, CUDA; a size of 0, one past the
// device's local memory and a launch without it are clear errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime_test_support.hpp"
#include "sycl_sources.hpp"
#include "sycl_targets.hpp"


TEST_CASE("a reduction through work-group scratch memory runs verified on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = plexus::test::build_sycl(t, plexus::test::scratch_source);
  const plexus::KernelInfo& info = bundle.kernel("scratch_sums").info();
  REQUIRE(info.args.size() == 4);  // in, sums, largest and the scratch
  CHECK(info.args[3].name == "work_group_scratch_size");
  CHECK(info.args[3].kind == plexus::KernelArgKind::local_pointer);
  CHECK(bundle.kernel("no_scratch").info().args.size() == 1);  // only kernels that call it
  const std::size_t group = 64, groups = 12, n = group * groups;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = int(i * 37 % 101) - 20;
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      if (!plexus::test::has_usm_device_memory(*device, *t.runtime)) continue;
      plexus::Queue q = t.runtime->queue(*device);
      int* din = plexus::malloc_device<int>(n, q);
      int* dsums = plexus::malloc_device<int>(groups, q);
      double* dlargest = plexus::malloc_device<double>(groups, q);
      q.memcpy(din, in.data(), n * sizeof(int));
      q.parallel_for(bundle.kernel("scratch_sums"),
                     plexus::nd_range(plexus::Range{n}, plexus::Range{group}), din, dsums,
                     dlargest, plexus::work_group_scratch_size(group * (sizeof(int) + sizeof(double))));
      std::vector<int> sums(groups, -1);
      std::vector<double> largest(groups, -1);
      q.memcpy(sums.data(), dsums, groups * sizeof(int));
      q.memcpy(largest.data(), dlargest, groups * sizeof(double)).wait();
      for (std::size_t g = 0; g < groups; ++g) {
        int sum = 0, best = in[g * group];
        for (std::size_t i = g * group; i < (g + 1) * group; ++i) {
          sum += in[i];
          best = std::max(best, in[i]);
        }
        INFO("work-group " << g);
        REQUIRE(sums[g] == sum);
        REQUIRE(largest[g] == double(best));
      }
      plexus::free(din, q);
      plexus::free(dsums, q);
      plexus::free(dlargest, q);
    }
  }
}

TEST_CASE("work-group scratch sizes of 0, past the device's local memory or none are errors") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle = plexus::test::build_sycl(t, plexus::test::scratch_source);
  const plexus::Kernel& kernel = bundle.kernel("scratch_sums");
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      if (!plexus::test::has_usm_device_memory(*device, *t.runtime)) continue;
      plexus::Queue q = t.runtime->queue(*device);
      int* data = plexus::malloc_device<int>(64, q);
      auto* wide = plexus::malloc_device<double>(64, q);
      const auto launch = [&](auto... scratch) {
        q.parallel_for(kernel, plexus::nd_range(plexus::Range{64}, plexus::Range{64}), data, data,
                       wide, scratch...);
      };
      using Catch::Matchers::Contains;
      CHECK_THROWS_WITH(launch(plexus::work_group_scratch_size(0)),
                           Contains("'scratch_sums', argument 4 ('work_group_scratch_size'): "
                                    "local memory of 0 bytes"));
      const std::size_t limit = device->info().local_memory_bytes;
      REQUIRE(limit > 0);
      CHECK_THROWS_WITH(launch(plexus::work_group_scratch_size(limit + 1)),
                           Contains(std::to_string(limit + 1) + " bytes of local memory, more than the " +
                                    std::to_string(limit) + " a work-group has on device '" +
                                    device->info().name + "'"));
      CHECK_THROWS_WITH(launch(),
                           Contains("takes 4 arguments, 3 given; the next is "
                                    "'work_group_scratch_size'"));
      plexus::free(data, q);
      plexus::free(wide, q);
    }
  }
}
