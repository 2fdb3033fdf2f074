// Host backend: __local memory (arguments and variables in the kernel body) is private to
// each work-group while many groups run at once, and barriers order the work-items of a
// group (run as fibers).
#include <catch2/catch.hpp>

#include <cstdint>

#include "host_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("host: reduction with a __local argument and barriers", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void reduce(__global const int* in, __global int* out, __local int* scratch) {
  size_t lid = get_local_id(0), size = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = size / 2; step > 0; step /= 2) {
    if (lid < step) scratch[lid] += scratch[lid + step];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
)");
  CHECK(module->kernels().front().uses_barriers);
  const std::size_t local = 64, groups = 300, n = local * groups;
  DeviceArray<std::int32_t> in(device, n), out(device, groups, -1);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::int32_t>(i % 1000) - 300;
  launch(*module, "reduce", range1(n, local),
         {in.argument(), out.argument(), KernelArgument::of_local(local * sizeof(std::int32_t))});
  std::size_t wrong = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    std::int32_t expected = 0;
    for (std::size_t i = 0; i < local; ++i) expected += in[g * local + i];
    if (out[g] != expected) ++wrong;
  }
  CHECK(wrong == 0);
}

TEST_CASE("host: tile transpose with a __local array in the kernel body, many groups at once",
          "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
#define TILE 16
__kernel void transpose(__global const float* in, __global float* out, uint width, uint height) {
  __local float tile[TILE][TILE + 1];
  size_t lx = get_local_id(0), ly = get_local_id(1);
  size_t gx = get_group_id(0) * TILE, gy = get_group_id(1) * TILE;
  tile[ly][lx] = in[(gy + ly) * width + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * height + gy + lx] = tile[lx][ly];
}
)");
  const KernelInfo& info = module->kernel("transpose").info();
  CHECK(info.uses_barriers);
  CHECK(info.uses_local_memory);
  const std::uint32_t width = 16 * 24, height = 16 * 20;
  DeviceArray<float> in(device, width * height), out(device, width * height, -1.0f);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  for (int repeat = 0; repeat < 3; ++repeat) {
    launch(*module, "transpose", range3({width, height, 1}, {16, 16, 1}, {0, 0, 0}, 2),
           {in.argument(), out.argument(), scalar(width), scalar(height)});
    std::size_t wrong = 0;
    for (std::size_t y = 0; y < height; ++y)
      for (std::size_t x = 0; x < width; ++x)
        if (out[x * height + y] != in[y * width + x]) ++wrong;
    CHECK(wrong == 0);
  }
}

TEST_CASE("host: __local variables without barriers are per work-group", "[backend-host]") {
  Device& device = host_device();
  // Each group fills its own array, then every work-item sums it: a shared array would mix
  // groups (the last writer of each slot wins).
  const auto module = build(device, R"(
__kernel void fill_and_sum(__global long* out) {
  __local long values[32];
  size_t lid = get_local_id(0);
  values[lid] = (long)get_group_id(0) * 1000 + lid;
  if (lid == get_local_size(0) - 1) {
    long sum = 0;
    for (size_t i = 0; i < get_local_size(0); ++i) sum += values[i];
    out[get_group_id(0)] = sum;
  }
}
)");
  CHECK_FALSE(module->kernels().front().uses_barriers);
  const std::size_t groups = 4000;
  DeviceArray<std::int64_t> out(device, groups, -1);
  launch(*module, "fill_and_sum", range1(groups * 32, 32), {out.argument()});
  std::size_t wrong = 0;
  for (std::size_t g = 0; g < groups; ++g)
    if (out[g] != static_cast<std::int64_t>(g) * 32000 + 496) ++wrong;
  CHECK(wrong == 0);
}

TEST_CASE("host: a barrier kernel without a local size gets one that divides the range",
          "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void group_sizes(__global uint* out) {
  __local uint count;
  if (get_local_id(0) == 0) count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&count);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = count * 10000 + get_local_size(0);
}
)");
  const std::size_t n = 3 * 5 * 7 * 4;  // 420
  DeviceArray<std::uint32_t> out(device, n, 0);
  launch(*module, "group_sizes", range1(n), {out.argument()});
  const std::uint32_t local = out[0] % 10000;
  CHECK(local > 1);
  CHECK(n % local == 0);
  for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == local * 10000 + local);
}

TEST_CASE("host: barriers in divergent control flow fail the queue, not the process",
          "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void divergent(__global int* out) {
  if (get_local_id(0) < 3) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
}
)");
  DeviceArray<std::int32_t> out(device, 16, 0);
  const auto queue = device.create_queue();
  queue->launch(module->kernel("divergent"), range1(16, 8), std::vector{out.argument()});
  try {
    queue->wait();
    FAIL("wait() did not report the failure");
  } catch (const error& e) {
    CHECK(e.category() == error_category::device);
    CHECK_THAT(e.what(), Catch::Contains("divergent"));
  }
  // Reported once; the queue works again.
  queue->wait();
  const auto ok = build(device, "__kernel void one(__global int* o) { o[get_global_id(0)] = 2; }");
  queue->launch(ok->kernel("one"), range1(16), std::vector{out.argument()});
  queue->wait();
  CHECK(out[15] == 2);
}

TEST_CASE("host: barrier kernels with large private arrays get stacks that hold them",
          "[backend-host]") {
  Device& device = host_device();
  // 512 KiB of private memory per work-item, more than the smallest fiber stack.
  const auto module = build(device, R"(
__kernel void big_private(__global const int* in, __global long* out, __local long* partial) {
  int buffer[128 * 1024];
  size_t lid = get_local_id(0);
  for (int i = 0; i < 128 * 1024; ++i) buffer[i] = in[(i + lid) % 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  long sum = 0;
  for (int i = 0; i < 128 * 1024; i += 1024) sum += buffer[i];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    long total = 0;
    for (size_t i = 0; i < get_local_size(0); ++i) total += partial[i];
    out[get_group_id(0)] = total;
  }
}
)");
  DeviceArray<std::int32_t> in(device, 64);
  for (std::size_t i = 0; i < 64; ++i) in[i] = static_cast<std::int32_t>(i);
  DeviceArray<std::int64_t> out(device, 4, -1);
  launch(*module, "big_private", range1(32, 8),
         {in.argument(), out.argument(), KernelArgument::of_local(8 * sizeof(std::int64_t))});
  for (std::size_t g = 0; g < 4; ++g) {
    std::int64_t expected = 0;
    for (int lid = 0; lid < 8; ++lid)
      for (int i = 0; i < 128 * 1024; i += 1024) expected += (i + lid) % 64;
    CHECK(out[g] == expected);
  }
}

TEST_CASE("host: kernels without barriers get long work-groups when the range has none",
          "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void sizes(__global uint* out) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] = get_local_size(0) * 10000 + get_local_size(1);
}
)");
  struct Case {
    std::array<std::size_t, 3> global;
    std::uint32_t local0, local1;
  };
  // 4096 x 3: 1024 x 1; 7 x 640: 7 work-items in dimension 0, so dimension 1 joins in.
  for (const Case& each : {Case{{4096, 3, 1}, 1024, 1}, Case{{7, 640, 1}, 7, 128}}) {
    INFO(each.global[0] << " x " << each.global[1]);
    DeviceArray<std::uint32_t> out(device, each.global[0] * each.global[1], 0);
    launch(*module, "sizes", range3(each.global, {0, 0, 0}, {0, 0, 0}, 2), {out.argument()});
    CHECK(out[0] == each.local0 * 10000 + each.local1);
    CHECK(out[out.size() - 1] == out[0]);
  }
}
