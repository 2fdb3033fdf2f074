// Device conformance, kernels: modules compiled by the clang compiler component for each
// device's first format it produces, loaded and launched: vector add, scalars of several
// sizes, a __local reduction with barriers, 2D and 3D ranges with global offsets; OpenCL C
// source built by the driver (with its build log in the error) where a device takes it;
// one kernel launched again and again, its arguments changed between some launches (the
// OpenCL backend sets only those that changed) from two queues.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <numeric>
#include <vector>

#include "device_under_test.hpp"
#include "plexus/device_queue.hpp"

using plexus::BinaryFormat;
using plexus::CopyLayout;
using plexus::Device;
using plexus::KernelArgument;
using plexus::NdRange;
using plexus::test::Allocation;
using plexus::test::download;
using plexus::test::for_each_device;
using plexus::test::load_program;
using plexus::test::range_1d;

namespace {

// Waits for the copy: `values` is often a temporary, and the copy reads it asynchronously
// (a copy that ran after it was freed read the allocator's free-list words instead).
template <class T>
void upload(plexus::DeviceQueue& queue, const Allocation& memory, const std::vector<T>& values) {
  queue.copy_to_device(memory.get(), values.data(),
                       CopyLayout::contiguous(0, values.size() * sizeof(T)));
  queue.wait();
}

std::span<const std::byte> as_bytes(const std::string& text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};
}

// Adds 1000 floats with the module's `vadd` and checks every sum.
void check_vector_add(Device& device, const plexus::DeviceModule& module) {
  const std::size_t n = 1000;
  std::vector<float> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f * float(i) + 3;
  Allocation da(device, n * 4), db(device, n * 4), dc(device, n * 4);
  const auto queue = device.create_queue();
  upload(*queue, da, a);
  upload(*queue, db, b);
  const KernelArgument args[] = {KernelArgument::of_allocation(da.get()),
                                 KernelArgument::of_allocation(db.get()),
                                 KernelArgument::of_allocation(dc.get())};
  queue->launch(module.kernel("vadd"), range_1d(n), args);
  const auto c = download<float>(*queue, dc, n);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += c[i] != a[i] + b[i];
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("vector add over 1000 floats", "[devices][launch]") {
  for_each_device([](Device& device) {
    if (const auto module = load_program(device, plexus::test::vector_add_source))
      check_vector_add(device, *module);
  });
}

TEST_CASE("OpenCL C source is built by the driver where the device takes it",
          "[devices][launch]") {
  for_each_device([](Device& device) {
    const auto& formats = device.info().formats;
    if (std::find(formats.begin(), formats.end(), BinaryFormat::opencl_c_source) ==
        formats.end()) {
      SUCCEED(device.info().name << " does not load OpenCL C source");
      return;
    }
    // The kernels' descriptions come from the compiler; the code is the source itself.
    const auto described = plexus::test::clang_compiler().compile(
        plexus::test::request(plexus::test::vector_add_source, BinaryFormat::spirv));
    REQUIRE(described.succeeded);
    const std::string source = plexus::test::vector_add_source;
    const auto module = device.load_module(BinaryFormat::opencl_c_source, as_bytes(source),
                                           described.kernels);
    check_vector_add(device, *module);

    const std::string broken = "__kernel void vadd(__global float* a) { a[0] = undeclared; }";
    try {
      device.load_module(BinaryFormat::opencl_c_source, as_bytes(broken), described.kernels);
      FAIL("a kernel using an undeclared name was built");
    } catch (const plexus::error& e) {
      CHECK(e.category() == plexus::error_category::build);
      CHECK_THAT(e.what(), Catch::Contains("undeclared"));  // the driver's build log
    }
  });
}

TEST_CASE("scalar arguments of 1, 2, 4, 8 and 16 bytes", "[devices][launch]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, R"(
      __kernel void scalars(__global long* out, char c, short s, int i, long l, float f,
                            int4 v) {
        out[0] = c; out[1] = s; out[2] = i; out[3] = l; out[4] = (long)(f * 4.0f);
        out[5] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w;
      })");
    if (!module) return;
    Allocation out(device, 6 * 8);
    const auto queue = device.create_queue();
    const std::int8_t c = -7;
    const std::int16_t s = -3000;
    const std::int32_t i = 123456789;
    const std::int64_t l = -9876543210LL;
    const float f = 2.25f;
    const std::int32_t v[4] = {1, 2, 3, 4};
    const KernelArgument args[] = {
        KernelArgument::of_allocation(out.get()), KernelArgument::of_scalar(&c, 1),
        KernelArgument::of_scalar(&s, 2),        KernelArgument::of_scalar(&i, 4),
        KernelArgument::of_scalar(&l, 8),        KernelArgument::of_scalar(&f, 4),
        KernelArgument::of_scalar(v, 16)};
    queue->launch(module->kernel("scalars"), range_1d(1), args);
    const auto values = download<std::int64_t>(*queue, out, 6);
    CHECK(values == std::vector<std::int64_t>{-7, -3000, 123456789, -9876543210LL, 9, 4321});
  });
}

// A backend may keep the argument values set last on a kernel object and set only those
// that changed (OpenCL: clSetKernelArg is skipped for an unchanged one): every launch must
// still see exactly its own arguments, whichever changed, and from whichever queue.
TEST_CASE("a kernel launched again with some arguments changed uses each launch's own",
          "[devices][launch]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, R"(
      __kernel void step(__global int* x, int amount, __local int* scratch) {
        scratch[get_local_id(0)] = amount;
        barrier(CLK_LOCAL_MEM_FENCE);
        x[get_global_id(0)] += scratch[get_local_id(0)];
      })");
    if (!module) return;
    const std::size_t n = 64;
    Allocation a(device, n * 4), b(device, n * 4);
    const auto first = device.create_queue(), second = device.create_queue();
    upload(*first, a, std::vector<int>(n, 0));
    upload(*first, b, std::vector<int>(n, 0));
    first->wait();
    const auto launch = [&](plexus::DeviceQueue& queue, const Allocation& x, int amount,
                            std::size_t local) {
      const KernelArgument args[] = {KernelArgument::of_allocation(x.get()),
                                     KernelArgument::of_scalar(&amount, sizeof amount),
                                     KernelArgument::of_local(local * sizeof(int))};
      queue.launch(module->kernel("step"), range_1d(n, local), args);
    };
    try {
      launch(*first, a, 1, 16);  // a: 1
    } catch (const plexus::error& e) {
      if (e.category() != plexus::error_category::unsupported) throw;
      WARN(device.info().name << ": __local arguments skipped: " << e.what());
      return;
    }
    launch(*first, a, 1, 16);    // the same arguments again: a: 2
    launch(*first, a, 10, 16);   // the scalar changed: a: 12
    launch(*first, b, 10, 16);   // the buffer changed: b: 10
    launch(*first, b, 10, 32);   // the local size changed: b: 20
    first->wait();
    launch(*second, a, 100, 32); // another queue, the buffer and scalar changed: a: 112
    launch(*second, a, 100, 32); // a: 212
    second->wait();
    launch(*first, b, 1000, 32); // back on the first queue, after the second's: b: 1020
    CHECK(download<int>(*first, a, n) == std::vector<int>(n, 212));
    CHECK(download<int>(*first, b, n) == std::vector<int>(n, 1020));
  });
}

TEST_CASE("a __local argument reduction with barriers", "[devices][launch]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, R"(
      __kernel void reduce(__global const int* in, __global int* out, __local int* scratch) {
        size_t lid = get_local_id(0), size = get_local_size(0);
        scratch[lid] = in[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t step = size / 2; step > 0; step /= 2) {
          if (lid < step) scratch[lid] += scratch[lid + step];
          barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0) out[get_group_id(0)] = scratch[0];
      })");
    if (!module) return;
    const std::size_t groups = 8, local = 32, n = groups * local;
    std::vector<int> in(n);
    std::iota(in.begin(), in.end(), 1);
    Allocation din(device, n * 4), dout(device, groups * 4);
    const auto queue = device.create_queue();
    upload(*queue, din, in);
    const KernelArgument args[] = {KernelArgument::of_allocation(din.get()),
                                   KernelArgument::of_allocation(dout.get()),
                                   KernelArgument::of_local(local * sizeof(int))};
    try {
      queue->launch(module->kernel("reduce"), range_1d(n, local), args);
    } catch (const plexus::error& e) {
      if (e.category() != plexus::error_category::unsupported) throw;
      WARN(device.info().name << ": __local arguments skipped: " << e.what());
      return;
    }
    const auto sums = download<int>(*queue, dout, groups);
    for (std::size_t g = 0; g < groups; ++g) {
      const int first = int(g * local) + 1, last = first + int(local) - 1;
      CHECK(sums[g] == (first + last) * int(local) / 2);
    }
  });
}

TEST_CASE("2D and 3D ranges with global offsets write exactly their cells",
          "[devices][launch]") {
  for_each_device([](Device& device) {
    const auto module = load_program(device, R"(
      __kernel void mark(__global int* out, int width, int height) {
        size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
        out[(z * height + y) * width + x] = (int)(z * 10000 + y * 100 + x);
      })");
    if (!module) return;
    const int width = 12, height = 7, depth = 4;
    const std::size_t cells = std::size_t(width) * height * depth;
    auto run = [&](const NdRange& range) {
      Allocation out(device, cells * 4);
      const auto queue = device.create_queue();
      const std::vector<int> initial(cells, -1);  // alive until the queue is waited on
      upload(*queue, out, initial);
      const KernelArgument args[] = {KernelArgument::of_allocation(out.get()),
                                     KernelArgument::of_scalar(&width, 4),
                                     KernelArgument::of_scalar(&height, 4)};
      queue->launch(module->kernel("mark"), range, args);
      const auto values = download<int>(*queue, out, cells);
      std::size_t wrong = 0;
      for (std::size_t z = 0; z < std::size_t(depth); ++z)
        for (std::size_t y = 0; y < std::size_t(height); ++y)
          for (std::size_t x = 0; x < std::size_t(width); ++x) {
            const bool inside = x >= range.offset[0] && x < range.offset[0] + range.global[0] &&
                                y >= range.offset[1] && y < range.offset[1] + range.global[1] &&
                                z >= range.offset[2] && z < range.offset[2] + range.global[2];
            const int expected = inside ? int(z * 10000 + y * 100 + x) : -1;
            wrong += values[(z * height + y) * width + x] != expected;
          }
      CHECK(wrong == 0);
    };
    for (const std::size_t dims : {2u, 3u}) {
      INFO(dims << "D");
      NdRange range;
      range.dimensions = dims;
      range.global = {8, 4, dims == 3 ? 2u : 1u};
      range.local = {4, 2, 1};
      run(range);  // no offset
      range.offset = {3, 2, dims == 3 ? 1u : 0u};
      try {
        run(range);
      } catch (const plexus::error& e) {
        if (e.category() != plexus::error_category::unsupported) throw;
        WARN(device.info().name << ": global offsets skipped: " << e.what());
      }
    }
  });
}
