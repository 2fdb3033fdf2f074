// fusion/llvm for PoCL (the OpenCL backend): SPIR bitcode and SPIR-V inputs fused into the
// device's format; fused results equal unfused ones, with a private promotion and with
// kernels over different ranges.
#include <algorithm>

#include "fusion_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

// The OpenCL backend's first device, or nullptr (with a warning) where there is none.
Device* opencl_device() {
  static std::shared_ptr<Backend> backend;
  if (!backend) {
    if (!std::filesystem::exists(plugin_file("backend", "opencl"))) {
      WARN("the OpenCL backend was not built");
      return nullptr;
    }
    backend = load_backend("opencl");
  }
  if (!backend->status().available || backend->device_count() == 0) {
    WARN("OpenCL is unavailable here: " << backend->status().reason);
    return nullptr;
  }
  return &backend->device(0);
}

void check_on_opencl(const TestProgram& program, BinaryFormat input) {
  Device* device = opencl_device();
  if (!device) return;
  const std::vector<BinaryFormat>& formats = device->info().formats;
  const auto target = std::find_if(formats.begin(), formats.end(), [](BinaryFormat f) {
    return f == BinaryFormat::spir_bitcode || f == BinaryFormat::spirv;
  });
  REQUIRE(target != formats.end());
  INFO(device->info().name << ", " << to_string(input) << " -> " << to_string(*target));
  const FusionResult fused = fusion_engine().fuse(fusion_request(program, input, *target));
  INFO(fused.reason);
  REQUIRE(fused.fused);
  CHECK(fused.format == *target);
  const auto expected = run_unfused(*device, *target, program);
  const auto actual = run_fused(*device, fused, program);
  for (const auto& [identity, data] : expected) {
    if (std::find(fused.promoted.begin(), fused.promoted.end(), identity) != fused.promoted.end())
      continue;
    INFO("buffer " << identity);
    CHECK(actual.at(identity) == data);
  }
}

TestProgram chain() {
  TestProgram program;
  program.source = R"(
__kernel void scale(__global const float* x, __global float* t, float by) {
  size_t i = get_global_id(0);
  t[i] = x[i] * by;
}
__kernel void add_one(__global const float* t, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = t[i] + 1.0f;
}
__kernel void fill2d(__global float* y) {
  size_t x = get_global_id(0), z = get_global_id(1);
  y[z * get_global_size(0) + x] += (float)(x + 100 * z);
}
)";
  std::vector<float> x(512);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  program.buffers = {{1, x}, {2, std::vector<float>(512, 9.0f)}, {3, std::vector<float>(512)}};
  program.scalars = {{4, bytes_of(2.5f)}};
  program.kernels = {{"scale", range1(512), {{1}, {2, Promotion::private_memory}, {4}}},
                     {"add_one", range1(512), {{2, Promotion::private_memory}, {3}}},
                     {"fill2d", range3({16, 32, 1}, {0, 0, 0}, {0, 0, 0}, 2), {{3}}}};
  return program;
}

}  // namespace

TEST_CASE("fusion pocl: SPIR bitcode inputs, private promotion, different ranges",
          "[fusion][backend-opencl]") {
  check_on_opencl(chain(), BinaryFormat::spir_bitcode);
}

TEST_CASE("fusion pocl: SPIR-V inputs (translated back to LLVM IR by the compiler)",
          "[fusion][backend-opencl]") {
  check_on_opencl(chain(), BinaryFormat::spirv);
}
