// SYCL free-function kernels built with Runtime::build(source, BuildProperties) and run,
// results verified, on the host device, on PoCL (the opencl backend) and, on the GPU
// machine, on CUDA. Pointer
// parameters are given buffers' accessors through Handler::parallel_for (USM pointers:
// sycl_usm_test.cpp), work_group_memory parameters plexus::local<T>(n), structs their value.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>
#include <vector>

#include "runtime_test_support.hpp"
#include "sycl_sources.hpp"
#include "sycl_targets.hpp"

namespace {

// The format of the code `bundle` runs on `device`.
plexus::BinaryFormat format_on(const plexus::KernelBundle& bundle, const plexus::Device& device) {
  for (const plexus::BundleImage& image : bundle.images())
    if (image.device == &device) return image.format;
  FAIL("the bundle is not loaded on " << device.info().name);
  return plexus::BinaryFormat::spirv;
}

struct Affine {  // as the kernel source declares it
  float scale;
  float offset;
  int odd_only;
};

}  // namespace

TEST_CASE("the seed's vec_add builds from its string and runs on the host and PoCL") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::seed_vec_add_source(), plexus::test::sycl_properties());
  CHECK(bundle.devices().size() == t.devices.size());
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      const std::size_t n = 1000;
      std::vector<float> a(n), b(n), out(n, -1.0f);
      std::iota(a.begin(), a.end(), 0.0f);
      std::iota(b.begin(), b.end(), 10.0f);
      {
        plexus::Buffer<float> ba(a.data(), n), bb(b.data(), n), bo(out.data(), n);
        plexus::Queue queue = t.runtime->queue(*device);
        queue.submit([&](plexus::Handler& h) {
          h.parallel_for(bundle.kernel("vec_add"), plexus::Range{n}, ba.access(h, plexus::read),
                         bb.access(h, plexus::read), bo.access(h, plexus::write));
        });
        bo.copy_to(out.data());
      }
      for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == a[i] + b[i]);
    }
  }
}

TEST_CASE("our SYCL kernels run verified on the host and PoCL") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::own_kernels_source(),
                       plexus::test::sycl_properties({"ops::scale<float>", "ops::scale<int>"}));
  for (plexus::Device* device : t.devices) {
    plexus::Queue queue = t.runtime->queue(*device);
    DYNAMIC_SECTION(device->info().name << ": reductions with atomic_ref") {
      const std::size_t n = 4096;
      std::vector<int> in(n);
      for (std::size_t i = 0; i < n; ++i) in[i] = int(i % 97) - 20;
      std::vector<int> totals = {0, -1000};
      std::vector<float> half = {0.0f};
      plexus::Buffer<int> bin(in.data(), n), btotals(totals.data(), 2);
      plexus::Buffer<float> bhalf(half.data(), 1);
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("reduce"), plexus::nd_range(plexus::Range{n}, plexus::Range{64}),
                       bin.access(h, plexus::read), btotals.access(h, plexus::read_write),
                       bhalf.access(h, plexus::read_write));
      });
      btotals.copy_to(totals.data());
      bhalf.copy_to(half.data());
      CHECK(totals[0] == std::accumulate(in.begin(), in.end(), 0));
      CHECK(totals[1] == 76);
      CHECK(half[0] == 0.5f * n);
    }
    DYNAMIC_SECTION(device->info().name << ": local memory with a barrier") {
      const std::size_t n = 1024, group = 64;
      std::vector<int> in(n), out(n, 0);
      std::iota(in.begin(), in.end(), 0);
      plexus::Buffer<int> bin(in.data(), n), bout(out.data(), n);
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("reverse_in_group"),
                       plexus::nd_range(plexus::Range{n}, plexus::Range{group}),
                       bin.access(h, plexus::read), bout.access(h, plexus::write),
                       plexus::local<int>(group));
      });
      bout.copy_to(out.data());
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t g = i / group, l = i % group;
        REQUIRE(out[i] == in[g * group + group - 1 - l] + 1000 * int(g));
      }
    }
    DYNAMIC_SECTION(device->info().name << ": a struct by value") {
      const std::size_t n = 256;
      std::vector<float> data(n);
      std::iota(data.begin(), data.end(), 0.0f);
      plexus::Buffer<float> bdata(data.data(), n);
      const Affine affine{2.0f, 0.5f, 1};
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("affine"), plexus::Range{n}, affine,
                       bdata.access(h, plexus::read_write));
      });
      bdata.copy_to(data.data());
      for (std::size_t i = 0; i < n; ++i)
        REQUIRE(data[i] == (i % 2 == 1 ? float(i) * 2.0f + 0.5f : float(i)));
    }
    DYNAMIC_SECTION(device->info().name << ": sub-groups") {
      const std::size_t n = 2048;
      std::vector<int> in(n), total = {0}, sizes = {0, 0};
      for (std::size_t i = 0; i < n; ++i) in[i] = int(i % 13);
      plexus::Buffer<int> bin(in.data(), n), btotal(total.data(), 1), bsizes(sizes.data(), 2);
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("sub_group_sum"),
                       plexus::nd_range(plexus::Range{n}, plexus::Range{128}),
                       bin.access(h, plexus::read), btotal.access(h, plexus::read_write),
                       bsizes.access(h, plexus::write));
      });
      btotal.copy_to(total.data());
      bsizes.copy_to(sizes.data());
      CHECK(total[0] == std::accumulate(in.begin(), in.end(), 0));
      // A warp on PTX; elsewhere (the CPU devices) a sub-group is one work-item.
      const int expected = format_on(bundle, *device) == plexus::BinaryFormat::ptx ? 32 : 1;
      CHECK(sizes[0] == expected);
      CHECK(sizes[1] == 128 / expected);
    }
    DYNAMIC_SECTION(device->info().name << ": math, vec and marray") {
      const std::size_t n = 64;
      std::vector<float> x(n), out(8 * n, 0.0f);
      for (std::size_t i = 0; i < n; ++i) x[i] = 0.05f + float(i) / 64.0f;
      plexus::Buffer<float> bx(x.data(), n), bout(out.data(), 8 * n);
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("math"), plexus::Range{n}, bx.access(h, plexus::read),
                       bout.access(h, plexus::write));
      });
      bout.copy_to(out.data());
      for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        INFO("x = " << v);
        CHECK(out[8 * i + 0] == Approx(std::sqrt(v)).epsilon(1e-6));
        CHECK(out[8 * i + 1] == Approx(std::sin(v)).epsilon(1e-5));
        CHECK(out[8 * i + 2] == Approx(v * 2.0f + 1.0f).epsilon(1e-6));
        CHECK(out[8 * i + 3] == std::min(std::max(v, 0.25f), 0.75f));
        CHECK(out[8 * i + 4] == Approx(std::exp(v) + std::log(v + 1.0f)).epsilon(1e-5));
        CHECK(out[8 * i + 5] == Approx(2.0f * v + 1.0f + 7.0f).epsilon(1e-6));
        CHECK(out[8 * i + 6] == Approx(2.0f * (v + 1.0f)).epsilon(1e-6));
        CHECK(out[8 * i + 7] == Approx(std::max(v * v, v)).epsilon(1e-5));
      }
    }
    DYNAMIC_SECTION(device->info().name << ": a 2D nd-range reads as SYCL numbers it") {
      // The launch's dimension 0 (4 wide) is SYCL's last dimension.
      const std::size_t width = 4, height = 3;
      std::vector<int> out(width * height, -1);
      plexus::Buffer<int> bout(out.data(), width * height);
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("index_2d"), plexus::Range{width, height},
                       bout.access(h, plexus::write));
      });
      bout.copy_to(out.data());
      for (std::size_t row = 0; row < height; ++row)
        for (std::size_t column = 0; column < width; ++column)
          REQUIRE(out[row * width + column] == int(row * 100 + column));
    }
    DYNAMIC_SECTION(device->info().name << ": a single task and registered names") {
      std::vector<int> one = {0};
      std::vector<float> floats = {1.0f, 2.0f, 3.0f};
      std::vector<int> ints = {1, 2, 3};
      plexus::Buffer<int> bone(one.data(), 1), bints(ints.data(), 3);
      plexus::Buffer<float> bfloats(floats.data(), 3);
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("single"), plexus::Range{1}, bone.access(h, plexus::write));
      });
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("ops::scale<float>"), plexus::Range{3},
                       bfloats.access(h, plexus::read_write), 1.5f);
      });
      queue.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("ops::scale<int>"), plexus::Range{3},
                       bints.access(h, plexus::read_write), 3);
      });
      bone.copy_to(one.data());
      bfloats.copy_to(floats.data());
      bints.copy_to(ints.data());
      CHECK(one[0] == 42);
      CHECK(floats == std::vector<float>{1.5f, 3.0f, 4.5f});
      CHECK(ints == std::vector<int>{3, 6, 9});
    }
  }
}

TEST_CASE("Runtime::build keys SYCL builds on their properties and refuses mistakes") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle first = t.runtime->build(
      plexus::test::own_kernels_source(), plexus::test::sycl_properties({"ops::scale<float>"}));
  const plexus::KernelBundle second = t.runtime->build(
      plexus::test::own_kernels_source(), plexus::test::sycl_properties({"ops::scale<int>"}));
  CHECK_NOTHROW(first.kernel("ops::scale<float>"));
  CHECK_THROWS_AS(first.kernel("ops::scale<int>"), plexus::error);
  CHECK_NOTHROW(second.kernel("ops::scale<int>"));
  CHECK_THROWS_AS(second.kernel("ops::scale<float>"), plexus::error);

  plexus::BuildProperties registered_for_opencl;
  registered_for_opencl.registered_names = {"k"};
  CHECK_THROWS_AS(t.runtime->build("__kernel void k() {}", registered_for_opencl), plexus::error);
  try {
    t.runtime->build("#include <sycl/sycl.hpp>\nextern \"C\" "
                     "SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((sycl::ext::oneapi::experimental::"
                     "nd_range_kernel<1>))\nvoid k(int* p) { p[0] = undeclared; }\n",
                     plexus::test::sycl_properties());
    FAIL("a SYCL source that does not compile built");
  } catch (const plexus::error& e) {
    CHECK(e.category() == plexus::error_category::build);
    CHECK(std::string(e.what()).find("kernel.cpp:3:") != std::string::npos);
    CHECK(std::string(e.what()).find("use of undeclared identifier 'undeclared'") !=
          std::string::npos);
  }
}
