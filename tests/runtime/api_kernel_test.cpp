// Kernels through the application API on the host backend (a device that shares host
// memory: location 0, no copies), over every memory policy and both schedulers; argument
// checks; the in-memory program cache.
#include <catch2/catch.hpp>

#include <numeric>
#include <thread>
#include <vector>

#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::make_runtime;
using plexus::test::require_error;

namespace {

const char* const kernels = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
__kernel void scale2d(__global int* m, int factor, ulong cols) {
  size_t r = get_global_id(0), c = get_global_id(1);
  m[r * cols + c] *= factor;
}
typedef struct { float scale; int offset; } params;
__kernel void affine(__global int* v, params p) {
  size_t i = get_global_id(0);
  v[i] = (int)((float)v[i] * p.scale) + p.offset;
}
__kernel void group_sum(__global const int* in, __global int* out, __local int* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int total = 0;
    for (size_t i = 0; i < get_local_size(0); ++i) total += scratch[i];
    out[get_group_id(0)] = total;
  }
}
)";

plexus::Device* host_device(plexus::Runtime& rt) {
  for (plexus::Device* device : rt.devices()) {
    if (device->shares_host_memory()) return device;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("kernels on the host device compute through buffers without copies") {
  for (const auto& choice : plexus::test::runtime_matrix()) {
    DYNAMIC_SECTION(choice.label()) {
      auto rt = make_runtime(choice, "\"host\"");
      plexus::Device* device = host_device(*rt);
      REQUIRE(device != nullptr);
      plexus::Queue q = rt->queue(*device);
      plexus::KernelBundle bundle = rt->build(kernels);
      CHECK(bundle.kernel_names() ==
            std::vector<std::string>{"saxpy", "scale2d", "affine", "group_sum"});

      const std::size_t n = 1024;
      std::vector<float> x(n), y(n, 1.0f);
      std::iota(x.begin(), x.end(), 0.0f);
      plexus::Buffer<float> bx(x.data(), n), by(y.data(), n);
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("saxpy"), plexus::Range{n}, 2.0f, bx.access(h, plexus::read),
                       by.access(h, plexus::read_write));
      });
      // A 2D kernel over a sub-range with an offset (the kernel gets the whole buffer).
      std::vector<int> m(8 * 6, 1);
      plexus::Buffer<int, 2> bm(m.data(), plexus::Range{8, 6});
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("scale2d"),
                       plexus::nd_range(plexus::Range{4, 6}, plexus::Range{2, 3},
                                        plexus::Range{4, 0}),
                       bm.access(h, plexus::read_write, plexus::Range{4, 6}, plexus::Range{4, 0}),
                       3, std::uint64_t{6});
      });
      // Work-group local memory.
      std::vector<int> ones(256, 1);
      plexus::Buffer<int> in(ones.data(), 256), sums(plexus::Range{4});
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("group_sum"), plexus::nd_range(plexus::Range{256}, plexus::Range{64}),
                       in.access(h, plexus::read), sums.access(h, plexus::discard_write),
                       plexus::local<int>(64));
      });
      // A struct passed by value (any trivially copyable type of the parameter's size).
      struct Params {
        float scale;
        int offset;
      };
      std::vector<int> values{1, 2, 3, 4};
      plexus::Buffer<int> bv(values.data(), values.size());
      q.submit([&](plexus::Handler& h) {
        h.parallel_for(bundle.kernel("affine"), plexus::Range{4}, bv.access(h, plexus::read_write),
                       Params{2.5f, 10});
      });
      bv.copy_to(values.data());
      CHECK(values == std::vector<int>{12, 15, 17, 20});
      by.copy_to(y.data());
      for (std::size_t i = 0; i < n; ++i) REQUIRE(y[i] == 2.0f * float(i) + 1.0f);
      auto mv = bm.host_access(plexus::read);
      CHECK(mv(3, 5) == 1);
      CHECK(mv(4, 0) == 3);
      CHECK(mv(7, 5) == 3);
      auto sv = sums.host_access(plexus::read);
      for (std::size_t g = 0; g < 4; ++g) CHECK(sv[g] == 64);
      CHECK(rt->memory_report().copies() == 0);  // the host device uses the host copy
    }
  }
}

TEST_CASE("kernel arguments, names and nd-ranges are checked before submission") {
  auto rt = make_runtime({"dag", "exact"}, "\"host\"");
  plexus::Device* device = host_device(*rt);
  REQUIRE(device != nullptr);
  plexus::Queue q = rt->queue(*device);
  plexus::KernelBundle bundle = rt->build(kernels);
  plexus::Buffer<float> x(plexus::Range{64}), y(plexus::Range{64});
  auto submit = [&](auto&&... args) {
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("saxpy"), plexus::Range{64}, args(h)...);
    });
  };
  auto value = [](auto v) { return [v](plexus::Handler&) { return v; }; };
  auto acc = [](plexus::Buffer<float>& b) {
    return [&b](plexus::Handler& h) { return b.access(h, plexus::read_write); };
  };
  require_error([&] { bundle.kernel("saxpi"); }, error_category::invalid_argument,
                "its kernels are: saxpy, scale2d, affine, group_sum");
  require_error([&] { submit(value(2.0), acc(x), acc(y)); }, error_category::invalid_argument,
                "argument 1 ('a'): expected a scalar of 4 bytes, got a value of 8 bytes (type double)");
  require_error([&] { submit(value(2.0f), value(1.0f), acc(y)); }, error_category::invalid_argument,
                "argument 2 ('x'): expected a __global pointer");
  require_error([&] { submit(acc(x), acc(x), acc(y)); }, error_category::invalid_argument,
                "expected a scalar of 4 bytes, got an accessor");
  require_error([&] { submit(value(2.0f), acc(x)); }, error_category::invalid_argument,
                "takes 3 arguments, 2 given; the next is 'y'");
  require_error([&] { submit(value(2.0f), acc(x), acc(y), value(1)); },
                error_category::invalid_argument, "argument 4 is one too many");
  require_error(
      [&] {
        q.submit([&](plexus::Handler& h) {
          h.parallel_for(bundle.kernel("saxpy"), plexus::nd_range(plexus::Range{64}, plexus::Range{24}),
                         2.0f, x.access(h, plexus::read), y.access(h, plexus::read_write));
        });
      },
      error_category::invalid_argument, "is not a multiple of the work-group size");
  // Nothing was submitted: the buffers were never touched by a task.
  q.wait();
  CHECK(rt->memory_report().accesses == 0);
}

TEST_CASE("USM-style device pointers stay valid and can be kernel arguments") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  plexus::Device* device = host_device(*rt);
  REQUIRE(device != nullptr);
  plexus::Queue q = rt->queue(*device);
  auto bundle = rt->build(kernels);
  std::vector<float> x(16, 1.0f), y(16, 0.0f);
  plexus::Buffer<float> bx(x.data(), 16), by(y.data(), 16);
  float* px = bx.device_pointer(q);
  CHECK(px == bx.device_pointer(q));
  q.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("saxpy"), plexus::Range{16}, 3.0f, px,
                   by.access(h, plexus::read_write));
  });
  CHECK(by.host_access()[15] == 3.0f);
}

TEST_CASE("the program cache builds each source once, across threads") {
  auto rt = make_runtime({"dag", "whole"}, "\"host\"");
  REQUIRE(host_device(*rt) != nullptr);
  const std::string source = "__kernel void k(__global int* x) { x[get_global_id(0)] += 1; }";
  std::vector<std::thread> threads;
  std::vector<std::vector<std::string>> names(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] { names[t] = rt->build(source, "-DUNUSED=1").kernel_names(); });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& each : names) CHECK(each == std::vector<std::string>{"k"});
  auto stats = rt->program_cache_stats();
  CHECK(stats.bundles.builds == 1);  // the front: one lookup for a repeated build
  CHECK(stats.bundles.hits + stats.bundles.waits == 3);
  CHECK(stats.programs.builds == 1);
  CHECK(stats.programs.misses == 1);
  CHECK(stats.modules.builds == 1);
  // Other options are another program.
  rt->build(source, "-DUNUSED=2");
  CHECK(rt->program_cache_stats().programs.builds == 2);
  rt->build(source, " -DUNUSED=2 ");  // the same options, spaced differently: a hit
  CHECK(rt->program_cache_stats().programs.builds == 2);
}

TEST_CASE("a kernel bundle used after its runtime is destroyed throws") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  REQUIRE(host_device(*rt) != nullptr);
  plexus::KernelBundle bundle = rt->build(kernels);
  plexus::Kernel saxpy = bundle.kernel("saxpy");
  plexus::Device* device = host_device(*rt);
  rt.reset();  // the modules go with the runtime's program cache
  require_error([&] { bundle.kernel("saxpy"); }, error_category::invalid_argument,
                "a kernel bundle was used after its plexus::Runtime was destroyed");
  require_error([&] { saxpy.module_on(*device); }, error_category::invalid_argument,
                "was used after");
}
