// Host backend: kernels compiled from OpenCL C run with the right results: work-item
// functions over 1-3 dimensional ranges with offsets, vector add, scalar arguments of
// several sizes (struct included), math builtins and atomics.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "host_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const work_item_source = R"(
__kernel void ids(__global ulong* out, uint width, uint height) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  __global ulong* o = out + ((z * height + y) * width + x) * 16;
  for (uint d = 0; d < 3; ++d) {
    o[d] = get_global_id(d);
    o[3 + d] = get_local_id(d);
    o[6 + d] = get_group_id(d);
    o[9 + d] = get_num_groups(d) * 1000 + get_local_size(d) * 100 + get_global_size(d);
  }
  o[12] = get_work_dim();
  o[13] = get_global_linear_id();
  o[14] = get_local_linear_id();
  o[15] = get_global_offset(0) + get_global_offset(1) * 100 + get_global_offset(2) * 10000;
}
)";

}  // namespace

TEST_CASE("host: work-item functions over a 3-D range with offsets", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, work_item_source, {"-cl-std=CL2.0"});
  const std::array<std::size_t, 3> global{6, 6, 4}, local{2, 3, 2}, offset{5, 7, 9};
  DeviceArray<std::uint64_t> out(device, 6 * 6 * 4 * 16, ~0ull);
  const std::uint32_t width = 6, height = 6;
  launch(*module, "ids", range3(global, local, offset),
         {out.argument(), scalar(width), scalar(height)});
  for (std::size_t z = 0; z < 4; ++z)
    for (std::size_t y = 0; y < 6; ++y)
      for (std::size_t x = 0; x < 6; ++x) {
        const std::uint64_t* o = &out[((z * 6 + y) * 6 + x) * 16];
        const std::array<std::size_t, 3> id{x, y, z};
        INFO("work-item " << x << ", " << y << ", " << z);
        for (std::size_t d = 0; d < 3; ++d) {
          CHECK(o[d] == id[d] + offset[d]);
          CHECK(o[3 + d] == id[d] % local[d]);
          CHECK(o[6 + d] == id[d] / local[d]);
          CHECK(o[9 + d] == (global[d] / local[d]) * 1000 + local[d] * 100 + global[d]);
        }
        CHECK(o[12] == 3);
        CHECK(o[13] == (z * 6 + y) * 6 + x);
        CHECK(o[14] == ((z % 2) * 3 + y % 3) * 2 + x % 2);
        CHECK(o[15] == 5 + 700 + 90000);
      }
}

TEST_CASE("host: vector add over 1, 2 and 3 dimensions, with and without a local size",
          "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c,
                   uint width, uint height) {
  size_t i = (get_global_id(2) * height + get_global_id(1)) * width + get_global_id(0);
  c[i] = a[i] + b[i];
}
)");
  const std::size_t w = 40, h = 12, d = 6, n = w * h * d;
  DeviceArray<float> a(device, n), b(device, n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i % 97);
  }
  const std::uint32_t width = w, height = h;
  struct Case {
    const char* name;
    NdRange range;
  };
  const Case cases[] = {
      {"1-D, offset 8, backend's local size", range1(n - 16, 0, 8)},
      {"1-D, local 16", range1(n, 16)},
      {"2-D, offset (3, 2), local (5, 2)", range3({35, 10, 1}, {5, 2, 1}, {3, 2, 0}, 2)},
      {"3-D, offset (1, 1, 1), backend's local size", range3({39, 11, 5}, {0, 0, 0}, {1, 1, 1})},
  };
  for (const Case& each : cases) {
    INFO(each.name);
    DeviceArray<float> c(device, n, -1.0f);
    launch(*module, "vadd", each.range,
           {a.argument(), b.argument(), c.argument(), scalar(width), scalar(height)});
    const NdRange& r = each.range;
    std::size_t wrong = 0, written = 0;
    for (std::size_t z = 0; z < d; ++z)
      for (std::size_t y = 0; y < h; ++y)
        for (std::size_t x = 0; x < w; ++x) {
          const std::size_t i = (z * h + y) * w + x;
          const bool inside = r.dimensions == 1
                                  ? i >= r.offset[0] && i < r.offset[0] + r.global[0]
                                  : x >= r.offset[0] && x < r.offset[0] + r.global[0] &&
                                        y >= r.offset[1] && y < r.offset[1] + r.global[1] &&
                                        z >= r.offset[2] && z < r.offset[2] + r.global[2];
          const float expected = inside ? a[i] + b[i] : -1.0f;
          if (inside) ++written;
          if (c[i] != expected) ++wrong;
        }
    CHECK(written == r.global_count());
    CHECK(wrong == 0);
  }
}

TEST_CASE("host: scalar arguments of 1 to 32 bytes, a struct and vectors", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
typedef struct { int a; double b; char c; } triple;
__kernel void scalars(__global double* out, char c, short s, int i, long l, float f, double d,
                      uchar u, float4 v, triple t, double4 w) {
  out[0] = c; out[1] = s; out[2] = i; out[3] = l; out[4] = f; out[5] = d; out[6] = u;
  out[7] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w;
  out[8] = t.a; out[9] = t.b; out[10] = t.c;
  out[11] = w.x + w.y + w.z + w.w;
}
)");
  const KernelInfo& info = module->kernel("scalars").info();
  REQUIRE(info.args.size() == 11);
  struct Triple {
    std::int32_t a;
    double b;
    char c;
  };
  CHECK(info.args[9].size == sizeof(Triple));
  DeviceArray<double> out(device, 12, 0.0);
  const char c = -5;
  const std::int16_t s = -30000;
  const std::int32_t i = 2000000000;
  const std::int64_t l = -(std::int64_t(1) << 40);
  const float f = 1.5f;
  const double d = 1e300;
  const std::uint8_t u = 250;
  alignas(16) const float v[4] = {1, 2, 3, 4};
  const Triple t{-7, 2.25, 'x'};
  alignas(32) const double w[4] = {0.5, 0.25, 0.125, 0.0625};
  launch(
      *module, "scalars", range1(1),
      {out.argument(), scalar(c), scalar(s), scalar(i), scalar(l), scalar(f), scalar(d), scalar(u),
       KernelArgument::of_scalar(v, sizeof v), scalar(t), KernelArgument::of_scalar(w, sizeof w)});
  CHECK(out[0] == -5);
  CHECK(out[1] == -30000);
  CHECK(out[2] == 2000000000);
  CHECK(out[3] == static_cast<double>(l));
  CHECK(out[4] == 1.5);
  CHECK(out[5] == 1e300);
  CHECK(out[6] == 250);
  CHECK(out[7] == 4321);
  CHECK(out[8] == -7);
  CHECK(out[9] == 2.25);
  CHECK(out[10] == 'x');
  CHECK(out[11] == 0.9375);
}

TEST_CASE("host: math builtins for float, double and float4", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void fmath(__global const float* x, __global float* out) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float* o = out + i * 18;
  o[0] = sqrt(v); o[1] = rsqrt(v); o[2] = exp(v); o[3] = log(v); o[4] = pow(v, 1.5f);
  o[5] = sin(v); o[6] = cos(v); o[7] = fabs(-v); o[8] = fmin(v, 2.0f); o[9] = fmax(v, 2.0f);
  o[10] = mad(v, 2.0f, 1.0f); o[11] = fma(v, 3.0f, 0.5f); o[12] = floor(v); o[13] = ceil(v);
  o[14] = clamp(v, 1.0f, 3.0f); o[15] = mix(1.0f, 5.0f, v / 8.0f);
  o[16] = min((int)v, 3) + max((int)v, 3) * 100;
  float4 q = sqrt((float4)(v, v * 4.0f, v * 9.0f, v * 16.0f)) + fmin((float4)(v), 2.0f);
  o[17] = q.x + q.y + q.z + q.w;
}
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void dmath(__global const double* x, __global double* out) {
  size_t i = get_global_id(0);
  double v = x[i];
  __global double* o = out + i * 6;
  o[0] = sqrt(v); o[1] = exp(v); o[2] = log(v); o[3] = pow(v, 0.5); o[4] = sin(v) + cos(v);
  o[5] = clamp(v, 1.0, 3.0) + fma(v, v, 1.0);
}
)");
  const std::size_t n = 64;
  DeviceArray<float> x(device, n), out(device, n * 18);
  DeviceArray<double> dx(device, n), dout(device, n * 6);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = 0.125f + 0.0625f * static_cast<float>(i);
    dx[i] = 0.125 + 0.0625 * static_cast<double>(i);
  }
  launch(*module, "fmath", range1(n), {x.argument(), out.argument()});
  launch(*module, "dmath", range1(n), {dx.argument(), dout.argument()});
  for (std::size_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float* o = &out[i * 18];
    INFO("x = " << v);
    const float expected[18] = {std::sqrt(v),
                                1.0f / std::sqrt(v),
                                std::exp(v),
                                std::log(v),
                                std::pow(v, 1.5f),
                                std::sin(v),
                                std::cos(v),
                                v,
                                std::fmin(v, 2.0f),
                                std::fmax(v, 2.0f),
                                v * 2 + 1,
                                v * 3 + 0.5f,
                                std::floor(v),
                                std::ceil(v),
                                std::fmin(std::fmax(v, 1.0f), 3.0f),
                                1.0f + 4.0f * v / 8.0f,
                                static_cast<float>(std::min(static_cast<int>(v), 3) +
                                                   std::max(static_cast<int>(v), 3) * 100),
                                std::sqrt(v) * 10 + 4 * std::fmin(v, 2.0f)};
    for (int k = 0; k < 18; ++k) {
      INFO("builtin " << k);
      CHECK(o[k] == Approx(expected[k]).epsilon(1e-5));
    }
    const double dv = dx[i];
    const double* p = &dout[i * 6];
    CHECK(p[0] == Approx(std::sqrt(dv)).epsilon(1e-12));
    CHECK(p[1] == Approx(std::exp(dv)).epsilon(1e-12));
    CHECK(p[2] == Approx(std::log(dv)).epsilon(1e-12));
    CHECK(p[3] == Approx(std::pow(dv, 0.5)).epsilon(1e-12));
    CHECK(p[4] == Approx(std::sin(dv) + std::cos(dv)).epsilon(1e-12));
    CHECK(p[5] == Approx(std::fmin(std::fmax(dv, 1.0), 3.0) + dv * dv + 1).epsilon(1e-12));
  }
}

TEST_CASE("host: atomics on global and local memory from many work-groups", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
__kernel void histogram(__global const uint* values, __global uint* bins,
                        __global int* extremes, __global long* total, __local uint* local_bins) {
  size_t lid = get_local_id(0);
  if (lid < 16) local_bins[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = values[get_global_id(0)];
  atomic_inc(&local_bins[v % 16]);
  atomic_add(&bins[16 + v % 7], 1u);
  atomic_max(&extremes[0], (int)v);
  atomic_min(&extremes[1], (int)v);
  atom_add(total, (long)v);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 16) atomic_add(&bins[lid], local_bins[lid]);
}
__kernel void swap_in(__global int* slot, __global int* seen) {
  int mine = (int)get_global_id(0) + 1;
  int old = atomic_xchg(slot, mine);
  atomic_or(&seen[old % 32], 1 << (old / 32 % 32));
  int expected = 0;
  atomic_cmpxchg(&seen[40], expected, 7);
}
)");
  const std::size_t n = 64 * 200;
  DeviceArray<std::uint32_t> values(device, n), bins(device, 32, 0);
  DeviceArray<std::int32_t> extremes(device, 2);
  DeviceArray<std::int64_t> total(device, 1, 0);
  extremes[0] = -1;
  extremes[1] = 1 << 30;
  std::uint64_t sum = 0;
  std::array<std::uint32_t, 16> expected16{};
  std::array<std::uint32_t, 7> expected7{};
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<std::uint32_t>((i * 2654435761u) % 100003);
    sum += values[i];
    ++expected16[values[i] % 16];
    ++expected7[values[i] % 7];
  }
  launch(*module, "histogram", range1(n, 64),
         {values.argument(), bins.argument(), extremes.argument(), total.argument(),
          KernelArgument::of_local(16 * sizeof(std::uint32_t))});
  for (std::size_t k = 0; k < 16; ++k) CHECK(bins[k] == expected16[k]);
  for (std::size_t k = 0; k < 7; ++k) CHECK(bins[16 + k] == expected7[k]);
  CHECK(total[0] == static_cast<std::int64_t>(sum));
  CHECK(extremes[0] == static_cast<std::int32_t>(*std::max_element(&values[0], &values[0] + n)));
  CHECK(extremes[1] == static_cast<std::int32_t>(*std::min_element(&values[0], &values[0] + n)));

  // xchg: every value written exactly once is read back exactly once (the first read is 0).
  DeviceArray<std::int32_t> slot(device, 1, 0), seen(device, 41, 0);
  launch(*module, "swap_in", range1(1023), {slot.argument(), seen.argument()});
  std::size_t marks = 0;
  for (std::size_t k = 0; k < 32; ++k) marks += std::popcount(static_cast<std::uint32_t>(seen[k]));
  CHECK(marks == 1023);  // 0..1023 read once each, except the one left in the slot
  CHECK(slot[0] >= 1);
  CHECK(seen[40] == 7);
}

TEST_CASE("host: OpenCL 2.0 atomics (C11 style) from many work-groups", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void c11(__global atomic_int* count, __global atomic_int* biggest,
                  __global atomic_float* sum, __global atomic_long* bits) {
  int id = (int)get_global_id(0);
  atomic_fetch_add(count, 1);
  atomic_fetch_max_explicit(biggest, id, memory_order_relaxed, memory_scope_device);
  float old = atomic_load(sum);
  while (!atomic_compare_exchange_weak(sum, &old, old + 1.0f)) {
  }
  atomic_fetch_or(bits, 1L << (id % 64));
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
}
)",
                            {"-cl-std=CL2.0"});
  DeviceArray<std::int32_t> count(device, 1, 0), biggest(device, 1, -1);
  DeviceArray<float> sum(device, 1, 0.0f);
  DeviceArray<std::int64_t> bits(device, 1, 0);
  const std::size_t n = 64 * 150;
  launch(*module, "c11", range1(n, 64),
         {count.argument(), biggest.argument(), sum.argument(), bits.argument()});
  CHECK(count[0] == static_cast<std::int32_t>(n));
  CHECK(biggest[0] == static_cast<std::int32_t>(n - 1));
  CHECK(sum[0] == static_cast<float>(n));
  CHECK(bits[0] == -1);
}
