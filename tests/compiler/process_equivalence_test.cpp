// compiler/process against compiler/clang: for the same requests and every target both
// produce, the same success or failure, the same kernels with the same KernelInfo, the
// same error lines for a broken source, and binaries their consumers accept (spirv-val
// for SPIR-V, PoCL for spir64 bitcode). Byte identity is not required.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <utility>

#include "pocl_runner.hpp"
#include "process_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

struct Case {
  const char* name;
  CompileRequest request;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  all.push_back({"vector add", request(vector_add_source, BinaryFormat::spirv)});
  all.push_back({"local memory, barriers, reqd_work_group_size", request(R"(
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce(__global const float* in, __global float* out, __local float* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) out[get_group_id(0)] = scratch[0] + scratch[1] + scratch[63];
}
__kernel void tiles(__global int* out) {
  __local int tile[16];
  tile[get_local_id(0) % 16] = (int)get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[3];
}
)",
                                                                         BinaryFormat::spirv)});
  all.push_back({"scalar, vector and constant arguments", request(R"(
__kernel void scalars(char c, short s, int i, long l, float f, float4 v,
                      __constant float* table, __global float* out) {
  out[get_global_id(0)] = c + s + i + l + f + v.x + v.w + table[i];
}
)",
                                                                  BinaryFormat::spirv)});
  all.push_back({"OpenCL 2.0 work_group_barrier", request(R"(
__kernel void shift(__global int* data, __local int* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = data[get_global_id(0)];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = scratch[(l + 1) % get_local_size(0)];
}
)",
                                                          BinaryFormat::spirv, {"-cl-std=CL2.0"})});
  all.push_back({"C++ for OpenCL templates",
                 request(R"(
template <typename T> T twice(T value) { return value + value; }
__kernel void scale(__global float* data, int offset) {
  size_t i = get_global_id(0);
  data[i] = twice(data[i]) + static_cast<float>(offset);
}
)",
                         BinaryFormat::spirv, {}, SourceLanguage::cpp_for_opencl)});
  Case includes{
      "virtual include files",
      request("#include \"common.h\"\n#include <lib/ops.h>\n"
              "__kernel void inc(__global int* o) { o[get_global_id(0)] = twice(BASE); }\n",
              BinaryFormat::spirv)};
  includes.request.includes = {{"common.h", "#define BASE 21\n"},
                               {"lib/ops.h", "inline int twice(int v) { return 2 * v; }\n"}};
  all.push_back(includes);
  Case selected{"kernel_name", request(R"(
int helper(int x) { return x * 3; }
__kernel void first(__global int* o) { o[get_global_id(0)] = helper(1); }
__kernel void second(__global int* o, int v) { o[get_global_id(0)] = v + helper(v); }
)",
                                       BinaryFormat::spirv, {"-DUNUSED=1", "-O3"})};
  selected.request.kernel_name = "second";
  all.push_back(selected);
  return all;
}

std::vector<BinaryFormat> common_targets() {
  std::vector<BinaryFormat> both;
  const std::vector<BinaryFormat> process = process_compiler().targets();
  for (BinaryFormat format : clang_compiler().targets())
    if (std::find(process.begin(), process.end(), format) != process.end()) both.push_back(format);
  return both;
}

std::vector<std::pair<unsigned, unsigned>> error_locations(const CompileResult& result) {
  std::vector<std::pair<unsigned, unsigned>> locations;
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.severity == DiagnosticSeverity::error)
      locations.emplace_back(diagnostic.line, diagnostic.column);
  return locations;
}

}  // namespace

TEST_CASE("equivalence: process and clang give the same kernels for every target", "[compiler]") {
  const std::vector<BinaryFormat> targets = common_targets();
  REQUIRE(targets.size() >= 4);
  for (const Case& c : cases()) {
    for (BinaryFormat format : targets) {
      CompileRequest r = c.request;
      r.target = format;
      const CompileResult in_process = clang_compiler().compile(r);
      const CompileResult tools = process_compiler().compile(r);
      INFO(c.name << " -> " << to_string(format) << "\nclang: " << in_process.log
                  << "\nprocess: " << tools.log);
      REQUIRE(in_process.succeeded);
      REQUIRE(tools.succeeded);
      CHECK(tools.format == in_process.format);
      CHECK(describe(tools.kernels) == describe(in_process.kernels));
      CHECK_FALSE(tools.binary.empty());
      if (format == BinaryFormat::spirv) {
        require_valid_spirv(in_process);
        require_valid_spirv(tools);
      }
      if (format == BinaryFormat::ptx) {
        for (const KernelInfo& kernel : tools.kernels)
          CHECK(as_text(tools.binary).find(".entry " + kernel.name) != std::string::npos);
      }
    }
  }
}

// LLVM's O2 can place a loop's exit block before the loop body that dominates it, and
// SPIRV-LLVM-Translator 15 keeps LLVM's block order, which spirv-val refuses ("ID ... has
// not been defined"); both components put the blocks in reverse post-order first.
TEST_CASE("equivalence: SPIR-V of a reduction loop passes spirv-val", "[compiler]") {
  const CompileRequest r = request(R"(
__kernel void reduce(__global const float* in, __global float* out, __local float* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    float sum = 0.0f;
    for (int i = 0; i < 64; ++i) sum += scratch[i];
    out[get_group_id(0)] = sum;
  }
}
)",
                                   BinaryFormat::spirv);
  require_valid_spirv(clang_compiler().compile(r));
  require_valid_spirv(process_compiler().compile(r));
}

TEST_CASE("equivalence: both spir64 bitcodes run on PoCL", "[compiler]") {
  const CompileRequest r = request(vector_add_source, BinaryFormat::spir_bitcode);
  const CompileResult in_process = clang_compiler().compile(r);
  const CompileResult tools = process_compiler().compile(r);
  REQUIRE(in_process.succeeded);
  REQUIRE(tools.succeeded);
  run_vector_add_on_pocl(in_process.binary);
  run_vector_add_on_pocl(tools.binary);
}

TEST_CASE("equivalence: failures fail in both, broken sources at the same lines", "[compiler]") {
  const char* broken =
      "__kernel void broken(__global int* out) {\n"
      "  int x = 1;\n"
      "  out[0] = x + undeclared_name;\n"
      "  out[1] = 2 +;\n"
      "}\n";
  for (BinaryFormat format : common_targets()) {
    std::vector<std::pair<const char*, CompileRequest>> failing = {
        {"broken source", request(broken, format)},
        {"unknown option", request(vector_add_source, format, {"-fno-such-option"})},
        {"refused option", request(vector_add_source, format, {"-mllvm -debug"})},
        {"empty source", request("", format)},
        {"missing include", request("#include \"gone.h\"\n__kernel void k() {}\n", format)},
        {"garbage bitcode",
         request("not bitcode at all", format, {}, SourceLanguage::llvm_bitcode)},
    };
    CompileRequest unknown_kernel = request(vector_add_source, format);
    unknown_kernel.kernel_name = "nope";
    failing.emplace_back("unknown kernel", unknown_kernel);
    for (const auto& [name, r] : failing) {
      const CompileResult in_process = clang_compiler().compile(r);
      const CompileResult tools = process_compiler().compile(r);
      INFO(name << " -> " << to_string(format) << "\nclang: " << in_process.log
                << "\nprocess: " << tools.log);
      CHECK_FALSE(in_process.succeeded);
      CHECK_FALSE(tools.succeeded);
      CHECK_FALSE(tools.log.empty());
      CHECK(tools.binary.empty());
      CHECK(error_locations(tools) == error_locations(in_process));
    }
  }
}

TEST_CASE("equivalence: the same bitcode input gives the same kernels", "[compiler]") {
  const CompileResult spir =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spir_bitcode));
  REQUIRE(spir.succeeded);
  for (BinaryFormat format : {BinaryFormat::spirv, BinaryFormat::spir_bitcode}) {
    const CompileRequest r =
        request(as_text(spir.binary), format, {}, SourceLanguage::llvm_bitcode);
    const CompileResult in_process = clang_compiler().compile(r);
    const CompileResult tools = process_compiler().compile(r);
    INFO(to_string(format) << "\nclang: " << in_process.log << "\nprocess: " << tools.log);
    REQUIRE(in_process.succeeded);
    REQUIRE(tools.succeeded);
    CHECK(describe(tools.kernels) == describe(in_process.kernels));
  }
}

TEST_CASE("equivalence: compile time of a small kernel, process vs clang", "[compiler][timing]") {
  for (BinaryFormat format : common_targets()) {
    double each[2] = {0, 0};
    Compiler* compilers[2] = {&clang_compiler(), &process_compiler()};
    for (int which = 0; which < 2; ++which) {
      compilers[which]->compile(request(vector_add_source, format));  // warm
      constexpr int runs = 5;
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < runs; ++i)
        REQUIRE(compilers[which]->compile(request(vector_add_source, format)).succeeded);
      each[which] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count() /
          runs;
    }
    std::cout << "compile time " << to_string(format) << ": clang " << each[0] << " ms, process "
              << each[1] << " ms\n";
  }
}
