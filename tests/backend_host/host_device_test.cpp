// Host backend: the device (allocations, rect copies, queues from several threads), the
// `devices` and `threads` options, and the compiler's host bitcode defining the work-item
// functions of the device library.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>

#include "host_test_support.hpp"
#include "plexus/copy_validation.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("host: allocations are 64-byte aligned host memory", "[backend-host]") {
  Device& device = host_device();
  CHECK(device.shares_host_memory());
  void* memory = device.allocate(1000);
  CHECK(reinterpret_cast<std::uintptr_t>(memory) % 64 == 0);
  static_cast<char*>(memory)[999] = 1;
  device.deallocate(memory);
  device.deallocate(nullptr);
  CHECK_THROWS_AS(device.allocate(0), error);
}

TEST_CASE("host: copies of a 3-D region move exactly its bytes", "[backend-host]") {
  Device& device = host_device();
  // A 10 x 6 x 4 box of 4-byte elements; the region: x 2..7, y 1..4, z 1..2.
  const std::size_t row_pitch = 10 * 4, slice_pitch = 6 * row_pitch, bytes = 4 * slice_pitch;
  CopyLayout layout;
  layout.offset = 1 * slice_pitch + 1 * row_pitch + 2 * 4;
  layout.row_bytes = 6 * 4;
  layout.rows = 4;
  layout.slices = 2;
  layout.row_pitch = row_pitch;
  layout.slice_pitch = slice_pitch;
  std::vector<std::uint8_t> host(bytes), back(bytes, 0xEE);
  for (std::size_t i = 0; i < bytes; ++i) host[i] = static_cast<std::uint8_t>(i * 7);
  auto* allocation = static_cast<std::uint8_t*>(device.allocate(bytes));
  std::fill(allocation, allocation + bytes, 0xAA);
  const auto queue = device.create_queue();
  queue->copy_to_device(allocation, host.data(), layout);
  queue->copy_to_host(back.data(), allocation, layout);
  queue->wait();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < bytes; ++i) {
    const std::size_t z = i / slice_pitch, y = i % slice_pitch / row_pitch, x = i % row_pitch / 4;
    const bool inside = z >= 1 && z < 3 && y >= 1 && y < 5 && x >= 2 && x < 8;
    if (allocation[i] != (inside ? host[i] : 0xAA)) ++wrong;
    if (back[i] != (inside ? host[i] : 0xEE)) ++wrong;
  }
  CHECK(wrong == 0);
  // A region past the allocation's end is refused before anything is copied.
  CopyLayout past = layout;
  past.slices = 4;
  CHECK_THROWS_AS(queue->copy_to_device(allocation, host.data(), past), error);
  device.deallocate(allocation);
}

TEST_CASE("host: queues on two threads launch at the same time", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void fill(__global int* out, int value) { out[get_global_id(0)] = value; })");
  DeviceArray<std::int32_t> a(device, 1 << 16), b(device, 1 << 16);
  auto run = [&](DeviceArray<std::int32_t>& out, std::int32_t base) {
    const auto queue = device.create_queue();
    for (std::int32_t k = 0; k < 50; ++k) {
      const std::int32_t value = base + k;
      queue->launch(module->kernel("fill"), range1(out.size()),
                    std::vector{out.argument(), scalar(value)});
    }
    queue->wait();
  };
  std::thread other([&] { run(b, 1000); });
  run(a, 0);
  other.join();
  CHECK(a[12345] == 49);
  CHECK(b[(1 << 16) - 1] == 1049);
}

TEST_CASE("host: the devices option splits the cores, each device runs kernels", "[backend-host]") {
  const auto backend = load_backend("host", "devices = 2\nthreads = 1");
  REQUIRE(backend->device_count() == 2);
  const std::string source = "__kernel void twice(__global int* v) { v[get_global_id(0)] *= 2; }";
  std::shared_ptr<DeviceModule> first;
  for (std::size_t i = 0; i < 2; ++i) {
    Device& device = backend->device(i);
    INFO(device.info().name);
    CHECK_THAT(device.info().name, Catch::Contains("(cores "));
    CHECK(device.info().compute_units >= 1);
    const auto module = build(device, source);
    DeviceArray<std::int32_t> values(device, 1000, 21);
    launch(*module, "twice", range1(1000), {values.argument()});
    CHECK(values[999] == 42);
    if (i == 0) first = module;
  }
  // A kernel of one device is refused by another's queue.
  Device& second = backend->device(1);
  DeviceArray<std::int32_t> values(second, 8, 1);
  const auto queue = second.create_queue();
  CHECK_THROWS_WITH(
      queue->launch(first->kernel("twice"), range1(8), std::vector{values.argument()}),
      Catch::Contains("loaded for another device"));

  try {
    load_backend("host", "devices = 0");
    FAIL("devices = 0 accepted");
  } catch (const error& e) {
    CHECK(e.category() == error_category::config);
    CHECK_THAT(e.what(), Catch::Contains("devices"));
  }
}

TEST_CASE("host: the compiler's llvm_bitcode defines the device library's functions",
          "[backend-host]") {
  if (std::string(PLEXUS_TEST_LLVM_NM).empty()) {
    WARN("llvm-nm was not found when this test was configured: not checked");
    return;
  }
  const char* const source = R"(
__kernel void uses(__global float* out, __global int* counter) {
  size_t i = get_global_id(0) + get_local_id(0) + get_group_id(0) + get_local_size(0);
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_add(counter, 1);
  out[i] = sqrt(out[i]) + exp(out[i]);
}
)";
  // compiler/clang, and compiler/process where it was built: both link the library.
  std::vector<std::shared_ptr<Compiler>> compilers{load_clang_compiler()};
  if (fs::exists(compiler_plugin_dir() / "libplexus_compiler_process.so"))
    compilers.push_back(load_compiler("process"));
  for (const auto& compiler : compilers) {
    const CompileResult result = compiler->compile(request(source, BinaryFormat::llvm_bitcode));
    INFO(result.log);
    REQUIRE(result.succeeded);
    TempDir dir;
    const fs::path file = dir.write("uses.bc", as_text(result.binary));
    const std::string command =
        std::string(PLEXUS_TEST_LLVM_NM) + " --defined-only " + file.string() + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string symbols;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) symbols += buffer;
    pclose(pipe);
    INFO(symbols);
    for (const char* name :
         {"_Z13get_global_idj", "_Z12get_local_idj", "_Z12get_group_idj", "_Z14get_local_sizej",
          "_Z7barrierj", "_Z10atomic_addPU8CLglobalVii", "_Z4sqrtf", "_Z3expf"})
      CHECK_THAT(symbols, Catch::Contains(name));
    // Only what the kernel uses comes in.
    CHECK_THAT(symbols, !Catch::Contains("_Z5tanhf"));
  }
}

// The optimised IR of `source` loaded on the host device (PLEXUS_HOST_DUMP_IR).
std::string optimised_ir(const std::string& source, std::vector<std::string> options = {}) {
  TempDir dir;
  const fs::path dump = dir.path() / "module.ll";
  {
    ScopedEnv env("PLEXUS_HOST_DUMP_IR", dump.string());
    build(host_device(), source, std::move(options));
  }
  std::ifstream in(dump);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_CASE("host: the work-group loop of a kernel without barriers is vectorised",
          "[backend-host]") {
  const std::string ir = optimised_ir(R"(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
})");
  INFO(ir);
  CHECK_THAT(ir, Catch::Contains("define void @vadd.plexus_group"));
  CHECK_THAT(ir, Catch::Contains(" x float> "));  // vector loads/adds/stores
  // The argument slots are read once per work-group, not per work-item.
  CHECK_THAT(ir, Catch::Contains("!invariant.load"));
}

TEST_CASE("host: the work-group loop of a kernel calling conversions, integer and relational "
          "builtins is vectorised", "[backend-host]") {
  const std::string ir = optimised_ir(R"(
__kernel void mixed(__global const float* a, __global const int* b, __global int* c) {
  size_t i = get_global_id(0);
  c[i] = convert_int_sat_rte(a[i] * 1000.0f) + hadd(b[i], 3) + add_sat(b[i], 7) +
         select(1, 2, isless(a[i], 0.0f)) + convert_int(convert_uchar_sat(b[i]));
})");
  INFO(ir);
  CHECK_THAT(ir, Catch::Contains("define void @mixed.plexus_group"));
  CHECK_THAT(ir, Catch::Contains(" x float> "));
  CHECK_THAT(ir, Catch::Contains(" x i32> "));
}

TEST_CASE("host: the work-group loop of a kernel calling half_/native_ math, ctz and the "
          "sub-group ids is vectorised", "[backend-host]") {
  const std::string ir = optimised_ir(R"(
__kernel void relaxed(__global const float* a, __global const uint* b, __global float* c,
                      __global uint* d) {
  size_t i = get_global_id(0);
  c[i] = native_divide(a[i], 3.0f) + half_sqrt(a[i]) + native_recip(a[i] + 1.0f);
  d[i] = ctz(b[i]) + get_sub_group_local_id() + get_sub_group_id();
})", {"-cl-std=CL2.0"});
  INFO(ir);
  CHECK_THAT(ir, Catch::Contains("define void @relaxed.plexus_group"));
  CHECK_THAT(ir, Catch::Contains(" x float> "));
  CHECK_THAT(ir, Catch::Contains(" x i32> "));
}

TEST_CASE("host: modules load and run from several threads at once", "[backend-host]") {
  Device& device = host_device();
  Compiler& compiler = clang_compiler();  // compiled first: what runs in parallel is the JIT
  std::vector<CompileResult> compiled;
  for (int k = 0; k < 4; ++k)
    compiled.push_back(compiler.compile(request(
        "__kernel void add_k(__global int* v) { v[get_global_id(0)] += " + std::to_string(k + 1) +
            "; }",
        BinaryFormat::llvm_bitcode)));
  std::vector<std::int64_t> sums(4, 0);
  auto work = [&](int k) {
    const auto module =
        device.load_module(BinaryFormat::llvm_bitcode, compiled[k].binary, compiled[k].kernels);
    std::vector<std::int32_t> values(256, 0);
    const auto queue = device.create_queue();
    for (int round = 0; round < 3; ++round)
      queue->launch(module->kernel("add_k"), range1(values.size()),
                    std::vector{KernelArgument::of_allocation(values.data())});
    queue->wait();
    for (std::int32_t v : values) sums[k] += v;
  };
  std::vector<std::thread> threads;
  for (int k = 1; k < 4; ++k) threads.emplace_back(work, k);
  work(0);
  for (std::thread& thread : threads) thread.join();
  for (int k = 0; k < 4; ++k) CHECK(sums[k] == 256 * 3 * (k + 1));
}

TEST_CASE("host: the host JIT and PoCL (the same libLLVM-15) run kernels in one process",
          "[backend-host]") {
  if (!fs::exists(plugin_file("backend", "opencl"))) {
    WARN("the OpenCL backend was not built: only the host device ran");
    return;
  }
  const auto opencl = load_backend("opencl");
  if (!opencl->status().available || opencl->device_count() == 0) {
    WARN("OpenCL is unavailable here: " << opencl->status().reason);
    return;
  }
  const char* const source = R"(
__kernel void scale(__global float* v, float by) { v[get_global_id(0)] *= by; })";
  const float by = 3.0f;
  // Host first, then the OpenCL device, then the host again (JIT after PoCL compiled).
  for (int round = 0; round < 2; ++round) {
    Device& host = host_device();
    std::vector<float> values(512, 2.0f);
    launch(*build(host, source), "scale", range1(values.size()),
           {KernelArgument::of_allocation(values.data()), scalar(by)});
    CHECK(values[511] == 6.0f);
    if (round == 1) break;

    Device& device = opencl->device(0);
    INFO(device.info().name);
    const BinaryFormat format = device.info().formats.front();
    const CompileResult compiled = clang_compiler().compile(request(source, format));
    INFO(compiled.log);
    REQUIRE(compiled.succeeded);
    const auto module = device.load_module(format, compiled.binary, compiled.kernels);
    void* allocation = device.allocate(values.size() * sizeof(float));
    const CopyLayout whole = CopyLayout::contiguous(0, values.size() * sizeof(float));
    const auto queue = device.create_queue();
    queue->copy_to_device(allocation, values.data(), whole);
    queue->launch(module->kernel("scale"), range1(values.size()),
                  std::vector{KernelArgument::of_allocation(allocation), scalar(by)});
    queue->copy_to_host(values.data(), allocation, whole);
    queue->wait();
    device.deallocate(allocation);
    CHECK(values[0] == 18.0f);
  }
}
