// compiler/clang outputs, checked by their consumers: spirv-val for SPIR-V, PoCL (through
// the OpenCL ICD) for spir64 bitcode, the PTX text, the host bitcode read back, and the
// compiler reached through a Runtime configured with `[compiler] use = "clang"`.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "compiler_test_support.hpp"
#include "plexus/runtime.hpp"
#include "pocl_runner.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("clang: OpenCL C 2.0 to SPIR-V passes spirv-val", "[compiler]") {
  require_valid_spirv(
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {"-cl-std=CL2.0"})));
}

TEST_CASE("clang: OpenCL C 1.2 and 3.0 to SPIR-V pass spirv-val", "[compiler]") {
  require_valid_spirv(
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {"-cl-std=CL1.2"})));
  require_valid_spirv(
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {"-cl-std=CL3.0"})));
}

TEST_CASE("clang: C++ for OpenCL 2021 templates to SPIR-V pass spirv-val", "[compiler]") {
  const char* source = R"(
template <typename T> T twice(T value) { return value + value; }
template <typename T> struct Pair { T first, second; T sum() const { return first + second; } };
__kernel void scale(__global float* data, int offset) {
  size_t i = get_global_id(0);
  Pair<int> p{offset, 1};
  data[i] = twice(data[i]) + static_cast<float>(p.sum());
}
)";
  const CompileResult result = clang_compiler().compile(
      request(source, BinaryFormat::spirv, {}, SourceLanguage::cpp_for_opencl));
  require_valid_spirv(result);
  REQUIRE(find_kernel(result, "scale") != nullptr);
}

TEST_CASE("clang: spir64 bitcode builds and runs a vector add on PoCL", "[compiler]") {
  const CompileResult result =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spir_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::spir_bitcode);
  REQUIRE(as_text(result.binary).substr(0, 4) == "BC\xC0\xDE");
  run_vector_add_on_pocl(result.binary);
}

TEST_CASE("clang: PTX has the kernel entry and the sm_80 target, builtins linked", "[compiler]") {
  const CompileResult result =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::ptx));
  INFO(result.log);
  REQUIRE(result.succeeded);
  const std::string ptx = as_text(result.binary);
  INFO(ptx);
  CHECK(ptx.find(".entry vadd") != std::string::npos);
  CHECK(ptx.find(".target sm_80") != std::string::npos);
  CHECK(ptx.find(".version 7.0") != std::string::npos);
  CHECK(ptx.find(".extern .func") == std::string::npos);  // get_global_id came from libclc

  CompileRequest for_sm75 = request(vector_add_source, BinaryFormat::ptx);
  for_sm75.target_architecture = "sm_75";
  const CompileResult sm75 = clang_compiler().compile(for_sm75);
  REQUIRE(sm75.succeeded);
  CHECK(as_text(sm75.binary).find(".target sm_75") != std::string::npos);

  // LLVM 15 stops at sm_86: an H100/H200 (sm_90) gets sm_86 PTX, which its driver compiles
  // forward (the runtime asks for the device's own architecture).
  CompileRequest for_sm90 = for_sm75;
  for_sm90.target_architecture = "sm_90";
  const CompileResult sm90 = clang_compiler().compile(for_sm90);
  INFO(sm90.log);
  REQUIRE(sm90.succeeded);
  CHECK(as_text(sm90.binary).find(".target sm_86") != std::string::npos);

  CompileRequest for_unknown = for_sm75;
  for_unknown.target_architecture = "gfx90a";  // not an NVPTX processor
  const CompileResult unknown = clang_compiler().compile(for_unknown);
  CHECK_FALSE(unknown.succeeded);
  CHECK(unknown.log.find("gfx90a") != std::string::npos);
}

TEST_CASE("clang: PTX of a kernel using many libclc builtins has nothing unresolved",
          "[compiler]") {
  const char* source = R"(
__kernel void math(__global float4* v, __global int* counter, __global double* d) {
  size_t i = get_global_id(0);
  float4 x = vload4(i, (__global float*)v);
  x = exp(x) + log(x) * pow(x, 2.5f) + sin(x) * cos(x) + rsqrt(x) + fma(x, x, x);
  vstore4(x, i, (__global float*)v);
  atomic_add(counter, convert_int_sat(x.x));
  d[i] = erf(d[i]) + tgamma(d[i]) + clamp(d[i], 0.0, 1.0);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}
)";
  for (int round = 0; round < 2; ++round) {  // the second time from the cached cut of libclc
    const CompileResult result = clang_compiler().compile(request(source, BinaryFormat::ptx));
    INFO(result.log);
    REQUIRE(result.succeeded);
    const std::string ptx = as_text(result.binary);
    CHECK(ptx.find(".entry math") != std::string::npos);
    CHECK(ptx.find(".extern .func") == std::string::npos);
    CHECK(ptx.find("atom.global.add") != std::string::npos);
  }
  // OpenCL 2.0's work_group_barrier, which libclc 15 lacks, becomes a barrier.
  const CompileResult barrier = clang_compiler().compile(request(
      "__kernel void k(__global int* g) { g[0] = 1; work_group_barrier(CLK_GLOBAL_MEM_FENCE); "
      "g[1] = g[0]; work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group); }",
      BinaryFormat::ptx, {"-cl-std=CL2.0"}));
  INFO(barrier.log);
  REQUIRE(barrier.succeeded);
  CHECK(as_text(barrier.binary).find("bar.sync") != std::string::npos);
}

TEST_CASE("clang: a builtin libclc lacks for PTX is a clear error, not a broken module",
          "[compiler]") {
  const char* source = "__kernel void k(__global int* g) { printf(\"%d\\n\", g[0]); }";
  const CompileResult ptx = clang_compiler().compile(request(source, BinaryFormat::ptx));
  INFO(ptx.log);
  CHECK_FALSE(ptx.succeeded);
  CHECK(ptx.log.find("printf") != std::string::npos);
  CHECK(clang_compiler().compile(request(source, BinaryFormat::spirv)).succeeded);
}

TEST_CASE("clang: host bitcode calling a function nothing defines is a build error naming it",
          "[compiler]") {
  check_host_functions_resolve(clang_compiler());
}

TEST_CASE("clang: host bitcode parses back and contains the kernel", "[compiler]") {
  const CompileResult result =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::llvm_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::llvm_bitcode);
  const std::string bitcode = as_text(result.binary);
  REQUIRE(bitcode.substr(0, 4) == "BC\xC0\xDE");
  CHECK(bitcode.find("x86_64") != std::string::npos);  // the host triple
  // Parsed back by LLVM (the same compiler, bitcode in).
  CompileRequest again =
      request(bitcode, BinaryFormat::llvm_bitcode, {}, SourceLanguage::llvm_bitcode);
  const CompileResult parsed = clang_compiler().compile(again);
  INFO(parsed.log);
  REQUIRE(parsed.succeeded);
  const KernelInfo* kernel = find_kernel(parsed, "vadd");
  REQUIRE(kernel != nullptr);
  REQUIRE(kernel->args.size() == 3);
  CHECK(kernel->args[0].kind == KernelArgKind::global_pointer);
}

TEST_CASE("clang: AMDGCN gives an ELF object, or unsupported", "[compiler]") {
  const auto targets = clang_compiler().targets();
  const bool has_amdgcn =
      std::find(targets.begin(), targets.end(), BinaryFormat::amdgcn) != targets.end();
  if (!has_amdgcn) {
    CHECK_THROWS_AS(clang_compiler().compile(request(vector_add_source, BinaryFormat::amdgcn)),
                    plexus::error);
    return;
  }
  const CompileResult result =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::amdgcn));
  INFO(result.log);
  REQUIRE(result.succeeded);
  CHECK(as_text(result.binary).substr(0, 4) ==
        "\x7f"
        "ELF");
  CHECK(as_text(result.binary).find("vadd") != std::string::npos);
}

TEST_CASE("clang: concurrent compiles from 4 threads all succeed", "[compiler]") {
  Compiler& compiler = clang_compiler();
  const CompileResult spirv_input =
      compiler.compile(request(vector_add_source, BinaryFormat::spirv));
  REQUIRE(spirv_input.succeeded);
  std::vector<CompileRequest> requests;
  for (BinaryFormat format : compiler.targets())
    requests.push_back(
        request("__kernel void k(__global float* x) { x[get_global_id(0)] = sqrt(x[0]) * SCALE; }",
                format, {"-DSCALE=2"}));
  requests.push_back(
      request(as_text(spirv_input.binary), BinaryFormat::spir_bitcode, {}, SourceLanguage::spirv));
  requests.push_back(
      request("template <class T> T id(T v) { return v; }\n"
              "__kernel void k(__global int* x) { x[0] = id(SCALE); }",
              BinaryFormat::spirv, {"-DSCALE=3"}, SourceLanguage::cpp_for_opencl));
  constexpr int threads_count = 4, rounds = 6;
  std::vector<std::vector<CompileResult>> results(threads_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < threads_count; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < rounds; ++round)
        results[t].push_back(compiler.compile(requests[(t + round) % requests.size()]));
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& per_thread : results) {
    REQUIRE(per_thread.size() == rounds);
    for (const CompileResult& result : per_thread) {
      INFO(to_string(result.format) << ": " << result.log);
      CHECK(result.succeeded);
      CHECK_FALSE(result.binary.empty());
      CHECK(result.kernels.size() == 1);
    }
  }
}

// The compiler plugin (libLLVM-15, libclang-cpp) and the OpenCL backend with PoCL (which
// loads the same libLLVM-15) in one process, as a Runtime sets them up.
TEST_CASE("clang: a Runtime with [compiler] use = clang and the OpenCL backend", "[compiler]") {
  const bool opencl = fs::exists(compiler_plugin_dir() / "libplexus_backend_opencl.so");
  std::string config = "[compiler]\nuse = \"clang\"\n[scheduler]\nuse = \"inorder\"\n";
  if (opencl) config += "[backends]\nuse = [\"opencl\"]\n";
  Runtime runtime(Config::from_string(config, "compiler_test.toml"));
  Compiler* compiler = runtime.components().compiler();
  REQUIRE(compiler != nullptr);
  const CompileResult result =
      compiler->compile(request(vector_add_source, BinaryFormat::spir_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  if (!opencl) {
    WARN("the OpenCL backend was not built: only the compiler was loaded");
    return;
  }
  REQUIRE(runtime.components().backend_count() == 1);
  run_vector_add_on_pocl(result.binary);
}

TEST_CASE("clang: compile time of a small kernel per target", "[compiler][timing]") {
  Compiler& compiler = clang_compiler();
  for (BinaryFormat format : compiler.targets()) {
    compiler.compile(request(vector_add_source, format));  // warm: libraries read
    constexpr int runs = 5;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i)
      REQUIRE(compiler.compile(request(vector_add_source, format)).succeeded);
    const std::chrono::duration<double, std::milli> each =
        (std::chrono::steady_clock::now() - start) / runs;
    std::cout << "compile time " << to_string(format) << ": " << each.count() << " ms\n";
  }
}
