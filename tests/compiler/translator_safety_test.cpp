// Both compiler components and the SPIR-V translator: what LLVM 15's SPIRV-LLVM-Translator
// cannot take never ends the process. `freeze` (the translator exited with status 15) and
// llvm.vector.reduce.* (status 8) are rewritten before translation; a module is given the
// lowest SPIR-V version it needs (sub_group_shuffle with -cl-std=CL3.0 aborted Debian's
// translator on an assertion under the old fixed 1.0), and one that needs more than the
// target accepts is an error naming the function, the capability and the version; any
// other translator failure is an error with the translator's message.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>

#include "compiler_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

std::string spir_ir(const std::string& declarations, const std::string& body) {
  return R"(target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
)" + declarations + R"(
define spir_kernel void @k(i32 addrspace(1)* %a) {
entry:
  %v = load i32, i32 addrspace(1)* %a
)" + body + R"(
  store i32 %r, i32 addrspace(1)* %a
  ret void
}
)";
}

std::uint32_t spirv_version(const std::vector<std::byte>& binary) {
  std::uint32_t version = 0;
  REQUIRE(binary.size() >= 8);
  std::memcpy(&version, binary.data() + 4, 4);
  return version;
}

const char* const shuffle_source = R"(
__kernel void shuffle(__global float* a) {
  size_t i = get_global_id(0);
  a[i] = sub_group_shuffle(a[i], 1u);
}
)";

}  // namespace

TEST_CASE("translator: freeze and vector reductions are rewritten, not fatal", "[compiler]") {
  for (const auto& compiler : compilers_under_test()) {
    const CompileResult frozen = compiler->compile(request(
        spir_ir("", "  %r = freeze i32 %v"), BinaryFormat::spirv, {}, SourceLanguage::llvm_ir_text));
    require_valid_spirv(frozen);
    const CompileResult reduced = compiler->compile(
        request(spir_ir("declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)",
                        "  %x = insertelement <4 x i32> <i32 1, i32 2, i32 3, i32 4>, i32 %v, "
                        "i32 0\n  %r = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %x)"),
                BinaryFormat::spirv, {}, SourceLanguage::llvm_ir_text));
    require_valid_spirv(reduced);
  }
}

TEST_CASE("translator: what it cannot translate is an error with its message", "[compiler]") {
  const CompileResult result = clang_compiler().compile(
      request(spir_ir("declare i32 @llvm.smul.fix.i32(i32, i32, i32)",
                      "  %r = call i32 @llvm.smul.fix.i32(i32 %v, i32 %v, i32 2)"),
              BinaryFormat::spirv, {}, SourceLanguage::llvm_ir_text));
  INFO(result.log);
  CHECK_FALSE(result.succeeded);
  CHECK_THAT(result.log, Catch::Contains("the SPIR-V translation failed"));
  CHECK_THAT(result.log, Catch::Contains("Unexpected llvm intrinsic"));
  CHECK_THAT(result.log, Catch::Contains("llvm.smul.fix.i32"));
}

TEST_CASE("translator: the lowest SPIR-V version the module needs, up to the target's",
          "[compiler]") {
  for (const auto& compiler : compilers_under_test()) {
    const CompileResult plain = compiler->compile(request(vector_add_source, BinaryFormat::spirv));
    require_valid_spirv(plain);
    CHECK(spirv_version(plain.binary) == 0x00010000);

    const CompileResult shuffled =
        compiler->compile(request(shuffle_source, BinaryFormat::spirv, {"-cl-std=CL3.0"}));
    INFO(shuffled.log);
    REQUIRE(shuffled.succeeded);
    CHECK(spirv_version(shuffled.binary) == 0x00010300);

    CompileRequest limited = request(shuffle_source, BinaryFormat::spirv, {"-cl-std=CL3.0"});
    limited.target_architecture = "spirv1.0";
    const CompileResult refused = compiler->compile(limited);
    INFO(refused.log);
    CHECK_FALSE(refused.succeeded);
    CHECK_THAT(refused.log, Catch::Contains("sub_group_shuffle"));
    CHECK_THAT(refused.log, Catch::Contains("SPIR-V 1.3 (capability GroupNonUniformShuffle)"));
    CHECK_THAT(refused.log, Catch::Contains("accepts SPIR-V up to 1.0"));

    // An OpenCL CL_DEVICE_IL_VERSION list names the highest version too.
    limited.target_architecture = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3";
    CHECK(compiler->compile(limited).succeeded);
    limited.target_architecture = "sm_80";
    CHECK_THROWS_AS(compiler->compile(limited), error);
  }
}
