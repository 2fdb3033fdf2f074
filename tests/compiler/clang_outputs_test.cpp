// compiler/clang outputs, checked by their consumers: spirv-val for SPIR-V, PoCL (through
// the OpenCL ICD) for spir64 bitcode, the PTX text, the host bitcode read back, and the
// compiler reached through a Runtime configured with `[compiler] use = "clang"`.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>
#include <algorithm>
#include <sys/wait.h>

#include "compiler_test_support.hpp"
#include "plexus/runtime.hpp"
#include "test_support.hpp"

#ifdef PLEXUS_TEST_HAVE_OPENCL
#include <CL/cl.h>
#endif

using namespace plexus;
using namespace plexus::test;

namespace {

// Runs spirv-val on the module; its output goes to the test's log.
int spirv_val(const std::vector<std::byte>& spirv, std::string& output) {
  TempDir dir;
  const fs::path file = dir.write("module.spv", as_text(spirv));
  const std::string command = std::string(PLEXUS_TEST_SPIRV_VAL) +
                              " --target-env opencl2.0 " + file.string() + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void require_valid_spirv(const CompileResult& result) {
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::spirv);
  REQUIRE(result.binary.size() > 20);
  if (std::string(PLEXUS_TEST_SPIRV_VAL).empty()) {
    WARN("spirv-val was not found when this test was configured: SPIR-V not validated");
    return;
  }
  std::string output;
  const int status = spirv_val(result.binary, output);
  INFO("spirv-val: " << output);
  CHECK(status == 0);
}

}  // namespace

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
#ifndef PLEXUS_TEST_HAVE_OPENCL
  WARN("built without OpenCL: the bitcode was not run");
#else
  cl_uint platform_count = 0;
  clGetPlatformIDs(0, nullptr, &platform_count);
  std::vector<cl_platform_id> platforms(platform_count);
  if (platform_count > 0) clGetPlatformIDs(platform_count, platforms.data(), nullptr);
  cl_platform_id pocl = nullptr;
  for (cl_platform_id platform : platforms) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find("Portable Computing Language") != std::string::npos) pocl = platform;
  }
  if (!pocl) {
    if (fs::exists("/etc/OpenCL/vendors/pocl.icd") && !std::getenv("OCL_ICD_VENDORS"))
      FAIL("PoCL is installed but the ICD loader does not list it");
    WARN("no PoCL platform: the bitcode was not run");
    return;
  }
  cl_device_id device = nullptr;
  REQUIRE(clGetDeviceIDs(pocl, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS);
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  REQUIRE(status == CL_SUCCESS);
  const auto* binary = reinterpret_cast<const unsigned char*>(result.binary.data());
  const std::size_t binary_size = result.binary.size();
  cl_int binary_status = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &binary_size, &binary,
                                                 &binary_status, &status);
  REQUIRE(status == CL_SUCCESS);
  status = clBuildProgram(program, 1, &device, "-x spir -spir-std=1.2", nullptr, nullptr);
  if (status != CL_SUCCESS) {
    char build_log[8192] = {};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof build_log, build_log,
                          nullptr);
    FAIL("clBuildProgram: " << status << ": " << build_log);
  }
  cl_kernel kernel = clCreateKernel(program, "vadd", &status);
  REQUIRE(status == CL_SUCCESS);
  constexpr std::size_t n = 1024;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i) + 3.0f;
  }
  cl_mem buffers[3];
  buffers[0] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                              a.data(), &status);
  buffers[1] = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                              b.data(), &status);
  buffers[2] = clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr, &status);
  REQUIRE(status == CL_SUCCESS);
  for (cl_uint i = 0; i < 3; ++i)
    REQUIRE(clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]) == CL_SUCCESS);
  REQUIRE(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) ==
          CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(queue, buffers[2], CL_TRUE, 0, n * sizeof(float), c.data(), 0,
                              nullptr, nullptr) == CL_SUCCESS);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) ++wrong;
  CHECK(wrong == 0);
  for (cl_mem buffer : buffers) clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
#endif
}

TEST_CASE("clang: PTX has the kernel entry and the sm_80 target, builtins linked", "[compiler]") {
  const CompileResult result = clang_compiler().compile(request(vector_add_source, BinaryFormat::ptx));
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
  CompileRequest again = request(bitcode, BinaryFormat::llvm_bitcode, {},
                                 SourceLanguage::llvm_bitcode);
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
  CHECK(as_text(result.binary).substr(0, 4) == "\x7f" "ELF");
  CHECK(as_text(result.binary).find("vadd") != std::string::npos);
}

TEST_CASE("clang: concurrent compiles from 4 threads all succeed", "[compiler]") {
  const BinaryFormat formats[] = {BinaryFormat::spirv, BinaryFormat::ptx,
                                  BinaryFormat::spir_bitcode, BinaryFormat::llvm_bitcode};
  std::vector<CompileResult> results(4 * 3);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round) {
        const std::string define = "-DSCALE=" + std::to_string(t + round);
        results[t * 3 + round] = clang_compiler().compile(request(
            "__kernel void k(__global float* x) { x[get_global_id(0)] *= SCALE; }",
            formats[(t + round) % 4], {define}));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const CompileResult& result : results) {
    INFO(result.log);
    CHECK(result.succeeded);
    CHECK_FALSE(result.binary.empty());
    CHECK(find_kernel(result, "k") != nullptr);
  }
}

TEST_CASE("clang: a Runtime configured with [compiler] use = clang exposes it", "[compiler]") {
  Runtime runtime(Config::from_string(
      "[compiler]\nuse = \"clang\"\n[scheduler]\nuse = \"inorder\"\n", "compiler_test.toml"));
  Compiler* compiler = runtime.components().compiler();
  REQUIRE(compiler != nullptr);
  const CompileResult result = compiler->compile(request(vector_add_source, BinaryFormat::spirv));
  INFO(result.log);
  CHECK(result.succeeded);
}

TEST_CASE("clang: compile time of a small kernel per target", "[compiler][timing]") {
  Compiler& compiler = clang_compiler();
  for (BinaryFormat format : compiler.targets()) {
    compiler.compile(request(vector_add_source, format));  // warm: libraries read
    constexpr int runs = 5;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < runs; ++i) REQUIRE(compiler.compile(request(vector_add_source, format)).succeeded);
    const std::chrono::duration<double, std::milli> each =
        (std::chrono::steady_clock::now() - start) / runs;
    std::cout << "compile time " << to_string(format) << ": " << each.count() << " ms\n";
  }
}
