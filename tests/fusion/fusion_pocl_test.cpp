// fusion/llvm for PoCL (the OpenCL backend): SPIR bitcode and SPIR-V inputs fused into the
// device's format; fused results equal unfused ones, with a private promotion and with
// kernels over different ranges.
#include <algorithm>

#include "fusion_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

void check_on_opencl(const TestProgram& program, BinaryFormat input) {
  Device* device = first_device_of("opencl");
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

}  // namespace

TEST_CASE("fusion pocl: SPIR bitcode inputs, private promotion, different ranges",
          "[fusion][backend-opencl]") {
  check_on_opencl(scale_add_one_fill2d(512, Promotion::private_memory), BinaryFormat::spir_bitcode);
}

TEST_CASE("fusion pocl: SPIR-V inputs (translated back to LLVM IR by the compiler)",
          "[fusion][backend-opencl]") {
  check_on_opencl(scale_add_one_fill2d(512, Promotion::private_memory), BinaryFormat::spirv);
}
