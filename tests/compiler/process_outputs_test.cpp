// compiler/process outputs, checked by their consumers (spirv-val, PoCL, the PTX text, the
// host bitcode's header), its inputs, kernel selection, the tools_dir option, concurrent
// use, and that its temporary directories go away.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "pocl_runner.hpp"
#include "process_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("process: OpenCL C 1.2, 2.0, 3.0 and C++ for OpenCL to SPIR-V pass spirv-val",
          "[compiler]") {
  for (const char* standard : {"-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"})
    require_valid_spirv(
        process_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {standard})));
  const char* source = R"(
template <typename T> T twice(T value) { return value + value; }
__kernel void scale(__global float* data) { size_t i = get_global_id(0); data[i] = twice(data[i]); }
)";
  const CompileResult cpp = process_compiler().compile(
      request(source, BinaryFormat::spirv, {}, SourceLanguage::cpp_for_opencl));
  require_valid_spirv(cpp);
  CHECK(find_kernel(cpp, "scale") != nullptr);
}

TEST_CASE("process: spir64 bitcode builds and runs a vector add on PoCL", "[compiler]") {
  const CompileResult result =
      process_compiler().compile(request(vector_add_source, BinaryFormat::spir_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.binary.size() > 4);
  CHECK(as_text(result.binary).substr(0, 4) == "BC\xC0\xDE");
  run_vector_add_on_pocl(result.binary);
}

TEST_CASE("process: PTX has the kernel entry and the sm_80 target, builtins linked", "[compiler]") {
  const CompileResult result =
      process_compiler().compile(request(vector_add_source, BinaryFormat::ptx));
  INFO(result.log);
  REQUIRE(result.succeeded);
  const std::string ptx = as_text(result.binary);
  CHECK(ptx.find(".entry vadd") != std::string::npos);
  CHECK(ptx.find(".target sm_80") != std::string::npos);
  CHECK(ptx.find("get_global_id") == std::string::npos);  // inlined from libclc
  CHECK(ptx.find(".extern .func") == std::string::npos);

  CompileRequest older = request(vector_add_source, BinaryFormat::ptx);
  older.target_architecture = "sm_75";
  const CompileResult sm75 = process_compiler().compile(older);
  REQUIRE(sm75.succeeded);
  CHECK(as_text(sm75.binary).find(".target sm_75") != std::string::npos);
}

TEST_CASE("process: an unknown processor or a builtin libclc lacks is a clear error",
          "[compiler]") {
  CompileRequest unknown = request(vector_add_source, BinaryFormat::ptx);
  unknown.target_architecture = "sm_99";
  const CompileResult result = process_compiler().compile(unknown);
  INFO(result.log);
  CHECK_FALSE(result.succeeded);
  CHECK(result.log.find("sm_99") != std::string::npos);

  const CompileResult printf_result = process_compiler().compile(
      request("__kernel void k(__global int* o) { printf(\"%d\\n\", o[0]); }", BinaryFormat::ptx,
              {"-cl-std=CL1.2"}));
  INFO(printf_result.log);
  CHECK_FALSE(printf_result.succeeded);
  CHECK(printf_result.log.find("printf") != std::string::npos);
}

TEST_CASE("process: host bitcode calling a function nothing defines is a build error naming it",
          "[compiler]") {
  check_host_functions_resolve(process_compiler());
}

TEST_CASE("process: host bitcode and AMDGCN objects", "[compiler]") {
  const CompileResult host =
      process_compiler().compile(request(vector_add_source, BinaryFormat::llvm_bitcode));
  INFO(host.log);
  REQUIRE(host.succeeded);
  CHECK(as_text(host.binary).substr(0, 4) == "BC\xC0\xDE");
  CHECK(find_kernel(host, "vadd") != nullptr);

  const CompileResult amdgcn =
      process_compiler().compile(request(vector_add_source, BinaryFormat::amdgcn));
  INFO(amdgcn.log);
  REQUIRE(amdgcn.succeeded);
  CHECK(as_text(amdgcn.binary).substr(0, 4) ==
        "\x7f"
        "ELF");
  CHECK(find_kernel(amdgcn, "vadd") != nullptr);
}

TEST_CASE("process: bitcode, IR text and SPIR-V inputs", "[compiler]") {
  const CompileResult spir =
      process_compiler().compile(request(vector_add_source, BinaryFormat::spir_bitcode));
  REQUIRE(spir.succeeded);
  const CompileResult spirv = process_compiler().compile(
      request(as_text(spir.binary), BinaryFormat::spirv, {}, SourceLanguage::llvm_bitcode));
  require_valid_spirv(spirv);
  REQUIRE(find_kernel(spirv, "vadd") != nullptr);

  const CompileResult back = process_compiler().compile(
      request(as_text(spirv.binary), BinaryFormat::spir_bitcode, {}, SourceLanguage::spirv));
  INFO(back.log);
  REQUIRE(back.succeeded);
  REQUIRE(find_kernel(back, "vadd") != nullptr);
  CHECK(find_kernel(back, "vadd")->args.size() == 3);
  run_vector_add_on_pocl(back.binary);

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
      process_compiler().compile(request(ir, BinaryFormat::ptx, {}, SourceLanguage::llvm_ir_text));
  INFO(ptx.log);
  REQUIRE(ptx.succeeded);
  CHECK(as_text(ptx.binary).find(".entry fill") != std::string::npos);
  REQUIRE(ptx.kernels.size() == 1);

  const CompileResult bad = process_compiler().compile(request(
      "define void @f() {\n  ret i32 0\n}\n", BinaryFormat::ptx, {}, SourceLanguage::llvm_ir_text));
  INFO(bad.log);
  REQUIRE_FALSE(bad.succeeded);
  REQUIRE_FALSE(bad.diagnostics.empty());
  CHECK(bad.diagnostics[0].file == "input.ll");
  CHECK(bad.diagnostics[0].line == 2);
  CHECK(bad.log.find("plexus-process-") == std::string::npos);

  const CompileResult wrong_target = process_compiler().compile(
      request(as_text(spir.binary), BinaryFormat::ptx, {}, SourceLanguage::llvm_bitcode));
  CHECK_FALSE(wrong_target.succeeded);
  CHECK(wrong_target.log.find("spir64") != std::string::npos);
}

TEST_CASE("process: kernel_name keeps one kernel", "[compiler]") {
  const char* source = R"(
int helper(int x) { return x * 3; }
__kernel void first(__global int* o) { o[get_global_id(0)] = helper(1); }
__kernel void second(__global int* o, int v) { o[get_global_id(0)] = v; }
)";
  for (BinaryFormat format : {BinaryFormat::ptx, BinaryFormat::spirv, BinaryFormat::spir_bitcode}) {
    CompileRequest r = request(source, format);
    r.kernel_name = "second";
    const CompileResult result = process_compiler().compile(r);
    INFO(result.log);
    REQUIRE(result.succeeded);
    REQUIRE(result.kernels.size() == 1);
    CHECK(result.kernels[0].name == "second");
    if (format == BinaryFormat::ptx) {
      CHECK(as_text(result.binary).find(".entry second") != std::string::npos);
      CHECK(as_text(result.binary).find(".entry first") == std::string::npos);
    }
  }
}

TEST_CASE("process: emit_ir stops before libclc and the back end", "[compiler]") {
  CompileRequest r = request(vector_add_source, BinaryFormat::ptx);
  r.emit_ir = true;
  const CompileResult result = process_compiler().compile(r);
  INFO(result.log);
  REQUIRE(result.succeeded);
  CHECK(result.format == BinaryFormat::llvm_bitcode);
  const std::string text = as_text(result.binary);
  CHECK(text.find("nvptx64-nvidia-nvcl") != std::string::npos);
  CHECK(text.find("_Z13get_global_idj") != std::string::npos);  // libclc not linked
  REQUIRE(result.kernels.size() == 1);
  CHECK(result.kernels[0].name == "vadd");
}

TEST_CASE("process: a missing tools_dir is unsupported and names the tool and the option",
          "[compiler]") {
  const auto compiler = load_compiler("process", "tools_dir = \"/nonexistent/llvm-15/bin\"");
  try {
    compiler->compile(request(vector_add_source, BinaryFormat::ptx));
    FAIL("no exception");
  } catch (const error& failure) {
    CHECK(failure.category() == error_category::unsupported);
    const std::string message = failure.what();
    CHECK(message.find("clang") != std::string::npos);
    CHECK(message.find("tools_dir") != std::string::npos);
    CHECK(message.find("/nonexistent/llvm-15/bin") != std::string::npos);
  }
  CHECK_THROWS_AS(process_compiler().compile(request(vector_add_source, BinaryFormat::native)),
                  error);
}

TEST_CASE("process: temporary directories are removed, failures included", "[compiler]") {
  TempDir tmp;
  const char* previous = std::getenv("TMPDIR");
  const std::string saved = previous ? previous : "";
  ::setenv("TMPDIR", tmp.path().c_str(), 1);
  for (BinaryFormat format : process_compiler().targets()) {
    CHECK(process_compiler().compile(request(vector_add_source, format)).succeeded);
    CHECK_FALSE(
        process_compiler().compile(request("__kernel void k() { nope; }", format)).succeeded);
  }
  CHECK_FALSE(
      process_compiler()
          .compile(request("garbage", BinaryFormat::spirv, {}, SourceLanguage::llvm_bitcode))
          .succeeded);
  CHECK_FALSE(process_compiler()
                  .compile(request("define void @f() {", BinaryFormat::ptx, {},
                                   SourceLanguage::llvm_ir_text))
                  .succeeded);
  CompileRequest with_includes =
      request("#include \"sub/dir/h.h\"\n__kernel void k(__global int* o) { o[0] = H; }",
              BinaryFormat::spirv);
  with_includes.includes = {{"sub/dir/h.h", "#define H 3\n"}};
  CHECK(process_compiler().compile(with_includes).succeeded);
  if (saved.empty())
    ::unsetenv("TMPDIR");
  else
    ::setenv("TMPDIR", saved.c_str(), 1);
  std::size_t leftovers = 0;
  for (const auto& entry : fs::directory_iterator(tmp.path())) {
    UNSCOPED_INFO("left over: " << entry.path());
    ++leftovers;
  }
  CHECK(leftovers == 0);
}

TEST_CASE("process: concurrent compiles from 4 threads all succeed", "[compiler]") {
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &ok] {
      const BinaryFormat format = t % 2 ? BinaryFormat::ptx : BinaryFormat::spirv;
      int good = 0;
      for (int i = 0; i < 3; ++i)
        good += process_compiler().compile(request(vector_add_source, format)).succeeded ? 1 : 0;
      ok[static_cast<std::size_t>(t)] = good;
    });
  for (std::thread& thread : threads) thread.join();
  for (int good : ok) CHECK(good == 3);
}
