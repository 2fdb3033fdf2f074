// SYCL group collectives over work-groups and sub-groups, work_group_static local memory
// and sycl::half (bench/kernels/sycl/group_kernels.cpp), run through the runtime and
// verified on the host device, PoCL and, on the GPU machine, CUDA (where a sub-group is a
// warp: work-groups of 48 leave a partial one).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime_test_support.hpp"
#include "sycl_sources.hpp"
#include "sycl_targets.hpp"

namespace {

bool runs_ptx(const plexus::KernelBundle& bundle, const plexus::Device& device) {
  for (const plexus::BundleImage& image : bundle.images())
    if (image.device == &device) return image.format == plexus::BinaryFormat::ptx;
  return false;
}

// IEEE binary16 through the compiler's _Float16 (round to nearest even).
float to_half(float x) { return static_cast<float>(static_cast<_Float16>(x)); }
std::uint16_t half_bits(float x) {
  const _Float16 h = static_cast<_Float16>(x);
  std::uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
float from_bits(std::uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

std::vector<int> inputs(std::size_t n) {
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = int(i * 37 % 101);
  return in;
}

// work_group_collectives over `in` in work-groups of `group`: 10 results per work-item.
std::vector<int> work_group_collectives(plexus::Runtime& runtime, plexus::Device& device,
                                        const plexus::KernelBundle& bundle,
                                        const std::vector<int>& in, std::size_t group) {
  const std::size_t n = in.size();
  std::vector<int> out(10 * n, -1);
  plexus::Buffer<int> bin(const_cast<int*>(in.data()), n), bout(out.data(), out.size());
  plexus::Queue queue = runtime.queue(device);
  queue.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("work_group_collectives"),
                   plexus::nd_range(plexus::Range{n}, plexus::Range{group}),
                   bin.access(h, plexus::read), bout.access(h, plexus::write));
  });
  bout.copy_to(out.data());
  return out;
}

}  // namespace

TEST_CASE("work-group collectives and work_group_static run verified on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::group_kernels_source(), plexus::test::sycl_properties());
  const std::size_t n = 384;
  const std::vector<int> in = inputs(n);
  for (plexus::Device* device : t.devices) {
    // 128: more than 64 sub-groups on the CPU devices (two rounds of the scratch); 48: a
    // partial warp on PTX.
    for (const std::size_t group : {std::size_t(128), std::size_t(48)}) {
      DYNAMIC_SECTION(device->info().name << ", work-groups of " << group) {
        const std::vector<int> out =
            work_group_collectives(*t.runtime, *device, bundle, in, group);
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t g = i / group, l = i % group, base = g * group;
          int sum = 0, before = 0, largest = 50, joint = 0;
          bool above_90 = false;
          for (std::size_t j = base; j < base + group; ++j) {
            sum += in[j];
            if (j < i) before += in[j];
            largest = std::max(largest, in[j]);
            above_90 = above_90 || in[j] > 90;
          }
          for (std::size_t j = 4 * g; j < 4 * g + 4; ++j) joint += in[j];
          const int* mine = out.data() + 10 * i;
          INFO("work-item " << i);
          REQUIRE(mine[0] == sum);
          REQUIRE(mine[1] == in[base + 3]);
          REQUIRE(mine[2] == before + in[i]);
          REQUIRE(mine[3] == before);
          REQUIRE(mine[4] == int(above_90) + 2 + 4);
          REQUIRE(mine[5] == largest);
          REQUIRE(mine[6] == 7 + before);
          REQUIRE(mine[7] == joint);
          REQUIRE(mine[8] == int(group));                      // a function-scope static
          REQUIRE(mine[9] == in[base + group - 1 - l]);        // a namespace-scope one
        }
      }
    }
  }
}

// Many work-groups at once: each must have its own local memory. PoCL runs a work-group per
// thread; with more threads than this VM's cores (POCL_MAX_PTHREAD_COUNT, read when PoCL
// starts: this test runs in a process of its own), the group algorithms' scratch raced
// between work-groups while it was one variable for all of them (kernel_local_variables.hpp).
TEST_CASE("work-group collectives of many concurrent work-groups each use their own local memory") {
  setenv("POCL_MAX_PTHREAD_COUNT", "16", 0);
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::group_kernels_source(), plexus::test::sycl_properties());
  const std::size_t group = 64, n = group * 96;
  const std::vector<int> in = inputs(n);
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      for (int launch = 0; launch < 12; ++launch) {
        const std::vector<int> out =
            work_group_collectives(*t.runtime, *device, bundle, in, group);
        std::size_t wrong = 0, first_wrong = n;
        for (std::size_t g = 0; g < n / group; ++g) {
          int sum = 0, before = 0;
          for (std::size_t j = g * group; j < (g + 1) * group; ++j) sum += in[j];
          for (std::size_t i = g * group; i < (g + 1) * group; ++i) {
            const int* mine = out.data() + 10 * i;
            const bool right = mine[0] == sum && mine[2] == before + in[i] && mine[3] == before &&
                               mine[8] == int(group) &&
                               mine[9] == in[(g + 1) * group - 1 - (i - g * group)];
            if (!right && wrong++ == 0) first_wrong = i;
            before += in[i];
          }
        }
        INFO("launch " << launch << ": first wrong work-item " << first_wrong);
        REQUIRE(wrong == 0);
      }
    }
  }
}

TEST_CASE("sub-group collectives run verified on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::group_kernels_source(), plexus::test::sycl_properties());
  const std::size_t n = 384;
  const std::vector<int> in = inputs(n);
  for (plexus::Device* device : t.devices) {
    const std::size_t width = runs_ptx(bundle, *device) ? 32 : 1;  // a warp, or one work-item
    for (const std::size_t group : {std::size_t(128), std::size_t(48)}) {
      DYNAMIC_SECTION(device->info().name << ", work-groups of " << group) {
        std::vector<int> out(6 * n, -1);
        {
          plexus::Buffer<int> bin(const_cast<int*>(in.data()), n), bout(out.data(), out.size());
          plexus::Queue queue = t.runtime->queue(*device);
          queue.submit([&](plexus::Handler& h) {
            h.parallel_for(bundle.kernel("sub_group_collectives"),
                           plexus::nd_range(plexus::Range{n}, plexus::Range{group}),
                           bin.access(h, plexus::read), bout.access(h, plexus::write));
          });
          bout.copy_to(out.data());
        }
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t l = i % group, first = i - l % width;
          const std::size_t lanes = std::min(width, group - l / width * width);
          int sum = 0, before = 0;
          for (std::size_t j = first; j < first + lanes; ++j) {
            sum += in[j];
            if (j < i) before += in[j];
          }
          const int* mine = out.data() + 6 * i;
          INFO("work-item " << i);
          REQUIRE(mine[5] == int(lanes));
          REQUIRE(mine[0] == sum);
          REQUIRE(mine[1] == in[first]);
          REQUIRE(mine[2] == before + in[i]);
          REQUIRE(mine[3] == before);
          REQUIRE(mine[4] == 1);
        }
      }
    }
  }
}

TEST_CASE("collectives over float and double run verified on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::group_kernels_source(), plexus::test::sycl_properties());
  const std::size_t n = 256, group = 64;
  std::vector<float> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = i % 3 == 0 ? 2.0f : i % 3 == 1 ? 0.5f : 1.0f;
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      std::vector<float> sums(n, -1.0f);
      std::vector<double> scans(n, -1.0);
      {
        plexus::Buffer<float> bin(in.data(), n), bsums(sums.data(), n);
        plexus::Buffer<double> bscans(scans.data(), n);
        plexus::Queue queue = t.runtime->queue(*device);
        queue.submit([&](plexus::Handler& h) {
          h.parallel_for(bundle.kernel("typed_collectives"),
                         plexus::nd_range(plexus::Range{n}, plexus::Range{group}),
                         bin.access(h, plexus::read), bsums.access(h, plexus::write),
                         bscans.access(h, plexus::write));
        });
        bsums.copy_to(sums.data());
        bscans.copy_to(scans.data());
      }
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t base = i / group * group;
        float sum = 0.0f;
        double product = 1.0;
        for (std::size_t j = base; j < base + group; ++j) sum += in[j];
        for (std::size_t j = base; j <= i; ++j) product *= in[j];
        INFO("work-item " << i);
        REQUIRE(sums[i] == sum);         // small binary fractions: exact in any order
        REQUIRE(scans[i] == product);
      }
    }
  }
}

TEST_CASE("sycl::half arithmetic, vec and marray run verified on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::group_kernels_source(), plexus::test::sycl_properties());
  const std::size_t n = 64;
  std::vector<std::uint16_t> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = half_bits((float(i) - 32.0f) * 0.3751f);
  in[7] = half_bits(65504.0f);  // the largest half: doubling it overflows to infinity
  for (plexus::Device* device : t.devices) {
    DYNAMIC_SECTION(device->info().name) {
      std::vector<std::uint16_t> out(6 * n, 0);
      std::vector<float> wide(2 * n, -1.0f);
      {
        plexus::Buffer<std::uint16_t> bin(in.data(), n), bout(out.data(), out.size());
        plexus::Buffer<float> bwide(wide.data(), wide.size());
        plexus::Queue queue = t.runtime->queue(*device);
        queue.submit([&](plexus::Handler& h) {
          h.parallel_for(bundle.kernel("halves"), plexus::nd_range(plexus::Range{n}),
                         bin.access(h, plexus::read), bout.access(h, plexus::write),
                         bwide.access(h, plexus::write));
        });
        bout.copy_to(out.data());
        bwide.copy_to(wide.data());
      }
      for (std::size_t i = 0; i < n; ++i) {
        const float a = from_bits(in[i]);
        const float b = to_half(to_half(a * 2.0f) + 1.0f);
        const std::uint16_t* mine = out.data() + 6 * i;
        INFO("a = " << a);
        REQUIRE(from_bits(mine[0]) == b);
        // OpenCL's float division is within 2.5 ulp: so is the half, to one half-ulp.
        REQUIRE(from_bits(mine[1]) == Approx(a / 3.0f).epsilon(1.0 / 1024).margin(1e-7));
        // sqrt is within 3 ulp in float: the rounded half may be one half-ulp off.
        REQUIRE(from_bits(mine[2]) ==
                Approx(std::sqrt(std::fabs(a))).epsilon(1.0 / 1024).margin(1e-7));
        REQUIRE(from_bits(mine[3]) == to_half(to_half(b * 0.5f) - a));
        REQUIRE(from_bits(mine[4]) == to_half(to_half(a + 1.0f) * to_half(b + 1.0f)));
        REQUIRE(mine[5] == (in[i] ^ 0x8000));
        REQUIRE(wide[2 * i] == a + b + (a < b ? 1.0f : 0.0f));
        REQUIRE(wide[2 * i + 1] == a + 0.25f);
      }
    }
  }
}
