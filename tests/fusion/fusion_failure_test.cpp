// fusion/llvm's failure paths: reasons (different local sizes, non-uniform work-groups, an
// empty list, offsets), refused promotions (escaping pointer, disagreeing sizes), and
// malformed requests as plexus::error with a category.
#include "fusion_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const source = R"(
__kernel void produce(__global const float* x, __global float* t) {
  size_t i = get_global_id(0);
  t[i] = x[i] + 1.0f;
}
__kernel void consume(__global const float* t, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = t[i] * 2.0f;
}
__kernel void leak(__global float* t, __global float* addr) {
  size_t i = get_global_id(0);
  t[i] += 1.0f;
  if (i == 0) addr[0] = (float)((ulong)t >> 63);  // 0 for user-space pointers
}
)";

TestProgram two_kernels(NdRange first, NdRange second, std::size_t n = 128) {
  TestProgram program;
  program.source = source;
  program.buffers = {{1, std::vector<float>(n, 1.0f)}, {2, std::vector<float>(n)},
                     {3, std::vector<float>(n)}};
  program.kernels = {{"produce", first, {{1}, {2}}}, {"consume", second, {{2}, {3}}}};
  return program;
}

FusionResult fuse_host(const TestProgram& program) {
  return fusion_engine().fuse(
      fusion_request(program, BinaryFormat::llvm_bitcode, BinaryFormat::llvm_bitcode));
}

}  // namespace

TEST_CASE("fusion failure: different local sizes", "[fusion]") {
  const FusionResult result = fuse_host(two_kernels(range1(128, 16), range1(128, 32)));
  CHECK_FALSE(result.fused);
  CHECK(result.reason.find("different local sizes") != std::string::npos);
  CHECK(result.binary.empty());
}

TEST_CASE("fusion failure: non-uniform work-groups", "[fusion]") {
  TestProgram program = two_kernels(range1(100), range1(100), 100);
  program.kernels[0].range.local = {16, 1, 1};  // 100 is not a multiple of 16
  const FusionResult result = fuse_host(program);
  CHECK_FALSE(result.fused);
  CHECK(result.reason.find("non-uniform") != std::string::npos);
}

TEST_CASE("fusion failure: an empty fusion list", "[fusion]") {
  FusionRequest request;
  const FusionResult result = fusion_engine().fuse(request);
  CHECK_FALSE(result.fused);
  CHECK(result.reason.find("empty") != std::string::npos);
}

TEST_CASE("fusion failure: different offsets, and a local-size kernel that needs remapping",
          "[fusion]") {
  CHECK(fuse_host(two_kernels(range1(128, 0, 4), range1(128))).reason.find("offsets") !=
        std::string::npos);
  const FusionResult result = fuse_host(
      two_kernels(range1(64, 8), range3({16, 8, 1}, {0, 0, 0}, {0, 0, 0}, 2)));
  CHECK_FALSE(result.fused);
  CHECK(result.reason.find("remapping") != std::string::npos);
}

TEST_CASE("fusion: an escaping pointer is not promoted, and the result stays right", "[fusion]") {
  TestProgram program = two_kernels(range1(64), range1(64), 64);
  program.buffers[4] = std::vector<float>(1, 5.0f);
  program.kernels.insert(program.kernels.begin() + 1,
                         TestKernel{"leak", range1(64), {{2, Promotion::private_memory}, {4}}});
  program.kernels[0].args[1].promotion = Promotion::private_memory;
  program.kernels[2].args[0].promotion = Promotion::private_memory;
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.promoted.empty());
  REQUIRE(fused.warnings.size() == 1);
  CHECK(fused.warnings[0].find("argument 2 is not promoted to private memory") != std::string::npos);
  CHECK(fused.warnings[0].find("escapes (ptrtoint)") != std::string::npos);
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1, 2, 4, 3});
}

TEST_CASE("fusion: promotion refused when the sizes per work-item differ", "[fusion]") {
  TestProgram program = two_kernels(range1(128), range1(64));
  program.kernels[0].args[1].promotion = Promotion::private_memory;
  program.kernels[1].args[0].promotion = Promotion::private_memory;
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.promoted.empty());
  REQUIRE(fused.warnings.size() == 1);
  CHECK(fused.warnings[0].find("different sizes") != std::string::npos);
}

TEST_CASE("fusion: malformed requests are errors with a category", "[fusion]") {
  FusionRequest request = fusion_request(two_kernels(range1(64), range1(64), 64),
                                         BinaryFormat::llvm_bitcode, BinaryFormat::llvm_bitcode);
  SECTION("argument count") {
    request.kernels[0].args.pop_back();
    try {
      fusion_engine().fuse(request);
      FAIL("no error");
    } catch (const error& e) {
      CHECK(e.category() == error_category::invalid_argument);
      CHECK(std::string(e.what()).find("parameters") != std::string::npos);
    }
  }
  SECTION("not bitcode") {
    request.kernels[1].binary = {std::byte{1}, std::byte{2}};
    try {
      fusion_engine().fuse(request);
      FAIL("no error");
    } catch (const error& e) {
      CHECK(e.category() == error_category::invalid_argument);
      CHECK(std::string(e.what()).find("not LLVM bitcode") != std::string::npos);
    }
  }
  SECTION("a constant for a pointer") {
    request.kernels[0].args[0].constant_value = bytes_of(std::uint64_t{0});
    CHECK_THROWS_AS(fusion_engine().fuse(request), error);
  }
  SECTION("host bitcode into SPIR-V") {
    request.target = BinaryFormat::spirv;
    try {
      fusion_engine().fuse(request);
      FAIL("no error");
    } catch (const error& e) {
      CHECK(e.category() == error_category::unsupported);
    }
  }
}
