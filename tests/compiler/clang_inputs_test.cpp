// compiler/clang: inputs other than OpenCL C (SPIR-V, LLVM IR text, bitcode), garbage
// inputs, unsupported targets and the component's directory options.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "compiler_test_support.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("clang: SPIR-V input becomes spir64 bitcode and SPIR-V again", "[compiler]") {
  const CompileResult spirv =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv));
  REQUIRE(spirv.succeeded);
  for (BinaryFormat format : {BinaryFormat::spir_bitcode, BinaryFormat::spirv}) {
    const CompileResult result =
        clang_compiler().compile(request(as_text(spirv.binary), format, {}, SourceLanguage::spirv));
    INFO(result.log);
    REQUIRE(result.succeeded);
    const KernelInfo* kernel = find_kernel(result, "vadd");
    REQUIRE(kernel != nullptr);
    CHECK(kernel->args.size() == 3);
  }
  // spir64 is not a PTX module: a clear error.
  const CompileResult wrong = clang_compiler().compile(
      request(as_text(spirv.binary), BinaryFormat::ptx, {}, SourceLanguage::spirv));
  CHECK_FALSE(wrong.succeeded);
  CHECK(wrong.log.find("spir64") != std::string::npos);
}

TEST_CASE("clang: LLVM IR text input to PTX and SPIR-V", "[compiler]") {
  const char* ir = R"(
target triple = "nvptx64-nvidia-cuda"
define void @fill(float addrspace(1)* %out) {
  store float 1.0, float addrspace(1)* %out
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*)* @fill, !"kernel", i32 1}
)";
  const CompileResult ptx =
      clang_compiler().compile(request(ir, BinaryFormat::ptx, {}, SourceLanguage::llvm_ir_text));
  INFO(ptx.log);
  REQUIRE(ptx.succeeded);
  CHECK(as_text(ptx.binary).find(".entry fill") != std::string::npos);
  REQUIRE(ptx.kernels.size() == 1);
  CHECK(ptx.kernels[0].name == "fill");

  const char* spir_ir = R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
define spir_kernel void @fill(float addrspace(1)* %out) {
  store float 1.0, float addrspace(1)* %out
  ret void
}
)";
  const CompileResult spirv = clang_compiler().compile(
      request(spir_ir, BinaryFormat::spirv, {}, SourceLanguage::llvm_ir_text));
  INFO(spirv.log);
  REQUIRE(spirv.succeeded);
  REQUIRE(spirv.kernels.size() == 1);
  CHECK(spirv.kernels[0].args[0].kind == KernelArgKind::global_pointer);

  const CompileResult bad = clang_compiler().compile(request(
      "define void @f() {\n  ret i32 0\n}\n", BinaryFormat::ptx, {}, SourceLanguage::llvm_ir_text));
  REQUIRE_FALSE(bad.succeeded);
  REQUIRE_FALSE(bad.diagnostics.empty());
  CHECK(bad.diagnostics[0].file == "input.ll");
  CHECK(bad.diagnostics[0].line == 2);
}

TEST_CASE("clang: binary garbage as bitcode, SPIR-V or IR is a clear error", "[compiler]") {
  const std::string garbage = "\x13\x37garbage\x00\xff\xfe not a module at all";
  const CompileResult bitcode = clang_compiler().compile(
      request(garbage, BinaryFormat::spir_bitcode, {}, SourceLanguage::llvm_bitcode));
  INFO(bitcode.log);
  REQUIRE_FALSE(bitcode.succeeded);
  CHECK(bitcode.log.find("not valid LLVM bitcode") != std::string::npos);

  std::string truncated = "BC\xC0\xDE";
  truncated += std::string(32, '\x01');
  const CompileResult truncated_result = clang_compiler().compile(
      request(truncated, BinaryFormat::spir_bitcode, {}, SourceLanguage::llvm_bitcode));
  CHECK_FALSE(truncated_result.succeeded);
  CHECK_FALSE(truncated_result.log.empty());

  const CompileResult spirv =
      clang_compiler().compile(request(garbage, BinaryFormat::spirv, {}, SourceLanguage::spirv));
  REQUIRE_FALSE(spirv.succeeded);
  CHECK(spirv.log.find("not a SPIR-V module") != std::string::npos);

  const CompileResult empty =
      clang_compiler().compile(request("", BinaryFormat::spirv, {}, SourceLanguage::llvm_bitcode));
  CHECK_FALSE(empty.succeeded);
  CHECK(empty.log.find("empty") != std::string::npos);
}

TEST_CASE("clang: targets it cannot produce throw unsupported", "[compiler]") {
  for (BinaryFormat format : {BinaryFormat::opencl_c_source, BinaryFormat::native}) {
    try {
      clang_compiler().compile(request(vector_add_source, format));
      FAIL("no exception for " << to_string(format));
    } catch (const plexus::error& e) {
      CHECK(e.category() == error_category::unsupported);
    }
  }
}

TEST_CASE("clang: resource_dir and libclc_dir options are used", "[compiler]") {
  const auto wrong_resources = load_clang_compiler("resource_dir = \"/nonexistent/clang\"");
  const CompileResult frontend =
      wrong_resources->compile(request(vector_add_source, BinaryFormat::spirv));
  CHECK_FALSE(frontend.succeeded);
  CHECK(frontend.log.find("/nonexistent/clang") != std::string::npos);

  const auto wrong_libclc = load_clang_compiler("libclc_dir = \"/nonexistent/clc\"");
  const CompileResult ptx = wrong_libclc->compile(request(vector_add_source, BinaryFormat::ptx));
  CHECK_FALSE(ptx.succeeded);
  CHECK(ptx.log.find("/nonexistent/clc/nvptx64--nvidiacl.bc") != std::string::npos);
  // SPIR-V needs no libclc.
  CHECK(wrong_libclc->compile(request(vector_add_source, BinaryFormat::spirv)).succeeded);
}

TEST_CASE("clang: host_device_library is linked into host bitcode", "[compiler]") {
  // A stand-in for the host backend's work-item library, built by the compiler itself.
  const CompileResult library = clang_compiler().compile(
      request("__attribute__((overloadable)) size_t get_global_id(uint d) { return d + 4242; }\n",
              BinaryFormat::llvm_bitcode));
  INFO(library.log);
  REQUIRE(library.succeeded);
  TempDir dir;
  const fs::path file = dir.write("workitems.bc", as_text(library.binary));
  const auto with_library = load_clang_compiler("host_device_library = \"" + file.string() + "\"");
  const CompileResult linked =
      with_library->compile(request(vector_add_source, BinaryFormat::llvm_bitcode));
  INFO(linked.log);
  REQUIRE(linked.succeeded);
  const CompileResult plain = load_clang_compiler("host_device_library = \"\"")
                                  ->compile(request(vector_add_source, BinaryFormat::llvm_bitcode));
  REQUIRE(plain.succeeded);
  CHECK(linked.binary.size() > plain.binary.size());  // the definition came in
  // Without a library the work-item functions stay external; with one they are defined:
  // the host bitcode of the linked module parses back and still has the kernel.
  const CompileResult parsed = clang_compiler().compile(request(
      as_text(linked.binary), BinaryFormat::llvm_bitcode, {}, SourceLanguage::llvm_bitcode));
  REQUIRE(parsed.succeeded);
  CHECK(find_kernel(parsed, "vadd") != nullptr);

  const auto missing = load_clang_compiler("host_device_library = \"/nonexistent/host.bc\"");
  const CompileResult failed =
      missing->compile(request(vector_add_source, BinaryFormat::llvm_bitcode));
  CHECK_FALSE(failed.succeeded);
  CHECK(failed.log.find("/nonexistent/host.bc") != std::string::npos);
}

TEST_CASE("clang: malformed SPIR-V with a valid header is refused and does not crash",
          "[compiler]") {
#ifndef PLEXUS_TEST_SPIRV_INPUT_VALIDATED
  WARN("built without SPIRV-Tools: malformed SPIR-V is not validated (not tested)");
#else
  const CompileResult good =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv));
  REQUIRE(good.succeeded);
  const std::string bytes = as_text(good.binary);
  std::mt19937 random(42);
  std::vector<std::string> inputs;
  std::string garbage = bytes.substr(0, 20);  // the header, then random words
  for (int i = 0; i < 40; ++i) {
    const std::uint32_t word = random();
    garbage.append(reinterpret_cast<const char*>(&word), 4);
  }
  inputs.push_back(garbage);
  inputs.push_back(bytes.substr(0, (bytes.size() / 2) & ~std::size_t{3}));  // truncated
  for (int round = 0; round < 8; ++round) {                                 // a few words changed
    std::string changed = bytes;
    for (int i = 0; i < 3; ++i) {
      const std::size_t at = 20 + (random() % ((bytes.size() - 20) / 4)) * 4;
      const std::uint32_t word = random() % 64;
      std::memcpy(&changed[at], &word, 4);
    }
    inputs.push_back(changed);
  }
  int refused = 0;
  for (const std::string& input : inputs) {
    const CompileResult result = clang_compiler().compile(
        request(input, BinaryFormat::spir_bitcode, {}, SourceLanguage::spirv));
    if (!result.succeeded) {
      ++refused;
      CHECK(result.log.find("SPIR-V") != std::string::npos);
    }
  }
  CHECK(refused >= 2);  // the random words and the truncated module at least
#endif
}
