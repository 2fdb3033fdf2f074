// SYCL group collectives over work-groups and sub-groups, work_group_static local memory
// and sycl::half (bench/kernels/sycl/group_kernels.cpp), collectives over a struct type with
// operations of the kernel's own (struct_collectives_source), run through the runtime and
// verified on the host device, PoCL and, on the GPU machine, CUDA (where a sub-group is a
// warp: work-groups of 48 leave a partial one).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <ostream>
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

// The kernel `name` (int* in, int* out) over `in` in work-groups of `group`: `per_item`
// results per work-item.
std::vector<int> run_int_kernel(plexus::Runtime& runtime, plexus::Device& device,
                                const plexus::KernelBundle& bundle, const char* name,
                                const std::vector<int>& in, std::size_t per_item,
                                std::size_t group) {
  const std::size_t n = in.size();
  std::vector<int> out(per_item * n, -1);
  plexus::Buffer<int> bin(const_cast<int*>(in.data()), n), bout(out.data(), out.size());
  plexus::Queue queue = runtime.queue(device);
  queue.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel(name), plexus::nd_range(plexus::Range{n}, plexus::Range{group}),
                   bin.access(h, plexus::read), bout.access(h, plexus::write));
  });
  bout.copy_to(out.data());
  return out;
}

// work_group_collectives over `in` in work-groups of `group`: 10 results per work-item.
std::vector<int> work_group_collectives(plexus::Runtime& runtime, plexus::Device& device,
                                        const plexus::KernelBundle& bundle,
                                        const std::vector<int>& in, std::size_t group) {
  return run_int_kernel(runtime, device, bundle, "work_group_collectives", in, 10, group);
}

// The host's mirrors of struct_collectives_source's structs and operations.
struct Affine {
  std::uint32_t a, b;
  bool operator==(const Affine& o) const { return a == o.a && b == o.b; }
};
Affine then(const Affine& f, const Affine& g) { return {f.a * g.a, g.a * f.b + g.b}; }
struct ArgMax {
  float value;
  int index;
  bool operator==(const ArgMax& o) const { return value == o.value && index == o.index; }
};
ArgMax first_max(const ArgMax& x, const ArgMax& y) {
  return y.value > x.value || (y.value == x.value && y.index < x.index) ? y : x;
}
std::ostream& operator<<(std::ostream& out, const Affine& f) {
  return out << "{" << f.a << ", " << f.b << "}";
}
std::ostream& operator<<(std::ostream& out, const ArgMax& x) {
  return out << "{" << x.value << ", " << x.index << "}";
}

// struct_collectives over `n` work-items in work-groups of `group`, checked against the
// host's fold of the same operations in local-id order.
void check_struct_collectives(plexus::Runtime& runtime, plexus::Device& device,
                              const plexus::KernelBundle& bundle, std::size_t n,
                              std::size_t group) {
  std::vector<Affine> maps(n);
  std::vector<float> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    maps[i] = {std::uint32_t(i * 2654435761u % 1000 + 1), std::uint32_t(i * 40503u % 977)};
    values[i] = float(i * 37 % 101);  // repeats: ties go to the lower index
  }
  std::vector<Affine> out(7 * n, Affine{0, 0});
  std::vector<ArgMax> best(4 * n, ArgMax{-9.0f, -9});
  {
    plexus::Buffer<Affine> bmaps(maps.data(), n), bout(out.data(), out.size());
    plexus::Buffer<float> bvalues(values.data(), n);
    plexus::Buffer<ArgMax> bbest(best.data(), best.size());
    plexus::Queue queue = runtime.queue(device);
    queue.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("struct_collectives"),
                     plexus::nd_range(plexus::Range{n}, plexus::Range{group}),
                     bmaps.access(h, plexus::read), bvalues.access(h, plexus::read),
                     bout.access(h, plexus::write), bbest.access(h, plexus::write));
    });
    bout.copy_to(out.data());
    bbest.copy_to(best.data());
  }
  for (std::size_t base = 0; base < n; base += group) {
    Affine all = maps[base], joint = Affine{7, 3};
    ArgMax top = {values[base], 0};
    for (std::size_t j = base + 1; j < base + group; ++j) {
      all = then(all, maps[j]);
      top = first_max(top, ArgMax{values[j], int(j - base)});
    }
    for (std::size_t j = base; j < base + 5; ++j) joint = then(joint, maps[j]);
    Affine before = {3, 1};  // the exclusive scan's init
    Affine running = {1, 0};  // the identity: the inclusive scan so far
    ArgMax best_before = {-1.0f, -1};
    for (std::size_t i = base; i < base + group; ++i) {
      const ArgMax x = {values[i], int(i - base)};
      const Affine* mine = out.data() + 7 * i;
      const ArgMax* tops = best.data() + 4 * i;
      INFO("work-item " << i << " of a work-group of " << group);
      running = then(running, maps[i]);
      REQUIRE(mine[0] == all);
      REQUIRE(mine[1] == running);
      REQUIRE(mine[2] == before);
      REQUIRE(mine[3] == then(Affine{5, 2}, running));
      REQUIRE(mine[4] == joint);
      REQUIRE(mine[5] == maps[base + 2]);
      REQUIRE(mine[6] == (Affine{9, 4}));
      REQUIRE(tops[0] == top);
      REQUIRE(tops[1] == first_max(ArgMax{60.0f, -1}, top));
      REQUIRE(tops[2] == best_before);
      best_before = first_max(best_before, x);  // the init {-1, -1} is below every value
      REQUIRE(tops[3] == best_before);
      before = then(before, maps[i]);
    }
  }
}

// int_collectives over `n` work-items in work-groups of `group`.
void check_int_collectives(plexus::Runtime& runtime, plexus::Device& device,
                           const plexus::KernelBundle& bundle, std::size_t n, std::size_t group) {
  std::vector<int> in = inputs(n);
  in[n - group / 3] = 100;  // one 100, in the last work-group
  const std::vector<int> out =
      run_int_kernel(runtime, device, bundle, "int_collectives", in, 8, group);
  for (std::size_t base = 0; base < n; base += group) {
    int sum = 0, largest = 50;
    bool hundred = false;
    for (std::size_t j = base; j < base + group; ++j) {
      sum += in[j];
      largest = std::max(largest, in[j]);
      hundred = hundred || in[j] == 100;
    }
    int before = 0;
    for (std::size_t i = base; i < base + group; ++i) {
      const int* mine = out.data() + 8 * i;
      INFO("work-item " << i << " of a work-group of " << group);
      REQUIRE(mine[0] == sum);
      REQUIRE(mine[1] == in[base + group - 2]);
      REQUIRE(mine[2] == before + in[i]);
      REQUIRE(mine[3] == 7 + before);
      REQUIRE(mine[4] == int(hundred) + 2 + 4 * int(!hundred));
      REQUIRE(mine[5] == largest);
      REQUIRE(mine[6] == sum);
      REQUIRE(mine[7] == int(hundred));
      before += in[i];
    }
  }
}

}  // namespace

TEST_CASE("work-group collectives and work_group_static run verified on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::group_kernels_source(), plexus::test::sycl_properties());
  const std::size_t n = 384;
  const std::vector<int> in = inputs(n);
  for (plexus::Device* device : t.devices) {
    // 128: four warps on PTX; 48: a partial warp on PTX (a work-item per sub-group on the
    // CPU devices; work-groups of more than the scratch's 1024 slots: the last test case).
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

TEST_CASE("collectives over a struct type with an operation of the kernel's own run verified "
          "on every device") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::struct_collectives_source, plexus::test::sycl_properties());
  for (plexus::Device* device : t.devices)
    for (const std::size_t group : {std::size_t(64), std::size_t(48)})
      DYNAMIC_SECTION(device->info().name << ", work-groups of " << group) {
        check_struct_collectives(*t.runtime, *device, bundle, 4 * group, group);
        check_int_collectives(*t.runtime, *device, bundle, 4 * group, group);
      }
}

// The group algorithms' scratch has 1024 slots off PTX; larger work-groups (PoCL's CPU
// device takes 4096) go through it in rounds. Each device at 4096 work-items per group, or
// the largest work-group both kernels may launch with there if smaller
// (Kernel::max_work_group_size: the host device and PoCL take 4096; on an H100
// struct_collectives' registers allow 896 threads), and PTX needs one round of its 32 slots
// for any size.
TEST_CASE("work-group collectives over work-groups of up to 4096 work-items run verified") {
  plexus::test::SyclTargets t = plexus::test::sycl_targets();
  const plexus::KernelBundle bundle =
      t.runtime->build(plexus::test::struct_collectives_source, plexus::test::sycl_properties());
  for (plexus::Device* device : t.devices) {
    const std::size_t group = std::min<std::uint64_t>(
        {4096, bundle.kernel("int_collectives").max_work_group_size(*device),
         bundle.kernel("struct_collectives").max_work_group_size(*device)});
    DYNAMIC_SECTION(device->info().name << ", work-groups of " << group) {
      check_int_collectives(*t.runtime, *device, bundle, 2 * group, group);
      check_struct_collectives(*t.runtime, *device, bundle, 2 * group, group);
    }
  }
}
