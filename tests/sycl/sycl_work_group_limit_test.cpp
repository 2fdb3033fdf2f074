// Kernel::max_work_group_size(device) (DeviceKernel::max_work_group_size of each backend): on
// every device of the test (the host device, PoCL, and CUDA on the GPU machine) a kernel's
// limit is within the device's, a launch of one work-group of that size runs verified and
// one of a work-item more is refused; a device the bundle is not loaded on is an error.
#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

#include "runtime_test_support.hpp"
#include "sycl_sources.hpp"
#include "sycl_targets.hpp"

namespace {

// vec_add over one work-group of `group` work-items on `device`, checked; throws what the
// launch throws.
void run_one_group(plexus::Runtime& runtime, plexus::Device& device, const plexus::Kernel& kernel,
                   std::size_t group) {
  std::vector<float> a(group), b(group), out(group, -1.0f);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(b.begin(), b.end(), 5.0f);
  {
    plexus::Buffer<float> ba(a.data(), group), bb(b.data(), group), bo(out.data(), group);
    plexus::Queue queue = runtime.queue(device);
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, plexus::nd_range(plexus::Range{group}, plexus::Range{group}),
                     ba.access(h, plexus::read), bb.access(h, plexus::read),
                     bo.access(h, plexus::write));
    });
    queue.wait();
    bo.copy_to(out.data());
  }
  for (std::size_t i = 0; i < group; ++i) REQUIRE(out[i] == a[i] + b[i]);
}

}  // namespace

TEST_CASE("a kernel's largest work-group on each device runs, one work-item more is refused") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::seed_vec_add_source(), plexus::test::sycl_properties());
  const plexus::Kernel kernel = bundle.kernel("vec_add");
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      const std::uint64_t limit = kernel.max_work_group_size(*device);
      INFO("limit " << limit << ", the device's " << device->info().max_work_group_size);
      CHECK(limit > 0);
      CHECK(limit <= device->info().max_work_group_size);
      if (device->native_backend() == "host")  // fibers of one thread, whatever the kernel
        CHECK(limit == device->info().max_work_group_size);
      run_one_group(*t.runtime, *device, kernel, limit);
      CHECK_THROWS_AS(run_one_group(*t.runtime, *device, kernel, limit + 1), plexus::error);
    }
  }
}

TEST_CASE("a kernel's work-group limit on a device its bundle is not loaded on is an error") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::seed_vec_add_source(), plexus::test::sycl_properties());
  auto other = plexus::test::sycl_targets();  // another runtime: its devices have no module
  CHECK_THROWS_WITH(bundle.kernel("vec_add").max_work_group_size(*other.devices.front()),
                    Catch::Contains("is not loaded on device"));
}
