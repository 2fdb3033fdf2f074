// Host backend: bad launches and bad modules are refused with a plexus::error that names
// what is wrong, before anything runs.
#include <catch2/catch.hpp>

#include <cstdint>

#include "host_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

template <class F>
void require_error(F&& call, error_category category, const std::string& contains) {
  try {
    call();
    FAIL("no error; expected one containing '" << contains << "'");
  } catch (const error& e) {
    INFO(e.what());
    CHECK(e.category() == category);
    CHECK_THAT(e.what(), Catch::Contains(contains));
  }
}

const char* const saxpy_source = R"(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
__kernel void with_local(__global int* out, __local int* scratch) {
  scratch[get_local_id(0)] = 1;
  out[get_global_id(0)] = scratch[get_local_id(0)];
}
)";

}  // namespace

TEST_CASE("host: launches with wrong arguments or ranges are refused", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, saxpy_source);
  const DeviceKernel& saxpy = module->kernel("saxpy");
  DeviceArray<float> x(device, 64, 1.0f), y(device, 64, 2.0f);
  const float a = 3.0f;
  const double wide = 3.0;
  const auto queue = device.create_queue();
  using Args = std::vector<KernelArgument>;

  require_error(
      [&] {
        queue->launch(saxpy, range1(64), Args{scalar(a), x.argument()});
      },
      error_category::invalid_argument, "takes 3 argument(s), 2 given");
  require_error(
      [&] {
        queue->launch(saxpy, range1(64), Args{x.argument(), x.argument(), y.argument()});
      },
      error_category::invalid_argument, "argument 0");
  require_error(
      [&] {
        queue->launch(saxpy, range1(64), Args{scalar(wide), x.argument(), y.argument()});
      },
      error_category::invalid_argument, "is 4 byte(s), 8 given");
  require_error(
      [&] {
        queue->launch(saxpy, range1(64), Args{scalar(a), scalar(a), y.argument()});
      },
      error_category::invalid_argument, "argument 1");
  require_error(
      [&] {
        queue->launch(saxpy, range1(60, 16), Args{scalar(a), x.argument(), y.argument()});
      },
      error_category::invalid_argument, "multiple");
  require_error(
      [&] {
        queue->launch(saxpy, range1(16384, 8192), Args{scalar(a), x.argument(), y.argument()});
      },
      error_category::invalid_argument, "maximum of 4096");
  require_error(
      [&] {
        queue->launch(module->kernel("with_local"), range1(64, 64),
                      Args{y.argument(), KernelArgument::of_local(std::size_t(1) << 30)});
      },
      error_category::invalid_argument, "bytes of local memory");
  // Nothing ran: y is untouched, and the queue has no failure to report.
  CHECK(y[0] == 2.0f);
  queue->wait();
  queue->launch(saxpy, range1(64), Args{scalar(a), x.argument(), y.argument()});
  queue->wait();
  CHECK(y[63] == 5.0f);
}

TEST_CASE("host: unknown kernels, other formats and bad modules are refused", "[backend-host]") {
  Device& device = host_device();
  const auto module = build(device, saxpy_source);
  require_error([&] { module->kernel("sxapy"); }, error_category::invalid_argument,
                "no kernel 'sxapy'; its kernels: 'saxpy', 'with_local'");

  const CompileResult compiled = compile_for_host(saxpy_source);
  require_error([&] { device.load_module(BinaryFormat::spirv, compiled.binary, compiled.kernels); },
                error_category::unsupported, "llvm-bitcode only");
  const std::string garbage = "BC\xC0\xDE not really bitcode";
  const auto* bytes = reinterpret_cast<const std::byte*>(garbage.data());
  require_error(
      [&] {
        device.load_module(BinaryFormat::llvm_bitcode, {bytes, garbage.size()}, compiled.kernels);
      },
      error_category::build, "not valid LLVM bitcode");
  std::vector<KernelInfo> renamed = compiled.kernels;
  renamed[0].name = "missing";
  require_error([&] { device.load_module(BinaryFormat::llvm_bitcode, compiled.binary, renamed); },
                error_category::build, "does not define the kernel 'missing'");
  // Bitcode for another target.
  const CompileResult spir =
      clang_compiler().compile(request(saxpy_source, BinaryFormat::spir_bitcode));
  REQUIRE(spir.succeeded);
  require_error([&] { device.load_module(BinaryFormat::llvm_bitcode, spir.binary, spir.kernels); },
                error_category::build, "spir64");
}

TEST_CASE("host: bitcode compiled without the device library names what is missing",
          "[backend-host]") {
  const auto bare = load_clang_compiler("host_device_library = \"\"");
  const CompileResult result = bare->compile(request(saxpy_source, BinaryFormat::llvm_bitcode));
  REQUIRE(result.succeeded);
  require_error(
      [&] { host_device().load_module(BinaryFormat::llvm_bitcode, result.binary, result.kernels); },
      error_category::build, "_Z13get_global_idj");
}
