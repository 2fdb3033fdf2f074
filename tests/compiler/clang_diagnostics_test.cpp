// compiler/clang: diagnostics (file, line, column, the log text), include files, macros,
// options, and the kernel properties it reports.
#include <catch2/catch.hpp>

#include "compiler_test_support.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("clang: a compile error comes back as a diagnostic with line and column", "[compiler]") {
  const char* source =
      "__kernel void broken(__global int* out) {\n"
      "  int x = 1;\n"
      "  out[0] = x + undeclared_name;\n"
      "}\n";
  const CompileResult result = clang_compiler().compile(request(source, BinaryFormat::spirv));
  INFO(result.log);
  REQUIRE_FALSE(result.succeeded);
  CHECK(result.binary.empty());
  const Diagnostic* error = first_error(result);
  REQUIRE(error != nullptr);
  CHECK(error->file == "kernel.cl");
  CHECK(error->line == 3);
  CHECK(error->column == 16);
  CHECK(error->message.find("undeclared_name") != std::string::npos);
  CHECK(result.log.find("kernel.cl:3:16: error: ") != std::string::npos);
  CHECK(result.log.find("  out[0] = x + undeclared_name;\n               ^") != std::string::npos);
}

TEST_CASE("clang: warnings are reported and do not fail the build", "[compiler]") {
  const CompileResult result = clang_compiler().compile(
      request("__kernel void k(__global int* out) {\n  int unused_value;\n#warning look here\n}\n",
              BinaryFormat::spir_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  bool warned = false;
  for (const Diagnostic& d : result.diagnostics)
    warned = warned || (d.severity == DiagnosticSeverity::warning && d.line == 3 &&
                        d.message.find("look here") != std::string::npos);
  CHECK(warned);
  CHECK_FALSE(clang_compiler()
                  .compile(request("#warning look here\n__kernel void k(__global int* o) {}",
                                   BinaryFormat::spir_bitcode, {"-Werror"}))
                  .succeeded);
}

TEST_CASE("clang: a missing include names the file", "[compiler]") {
  const CompileResult result = clang_compiler().compile(
      request("#include \"not_there.h\"\n__kernel void k(__global int* o) { o[0] = 1; }\n",
              BinaryFormat::spirv));
  INFO(result.log);
  REQUIRE_FALSE(result.succeeded);
  const Diagnostic* error = first_error(result);
  REQUIRE(error != nullptr);
  CHECK(error->message.find("not_there.h") != std::string::npos);
  CHECK(error->file == "kernel.cl");
  CHECK(error->line == 1);
  CHECK(result.log.find("not_there.h") != std::string::npos);
}

TEST_CASE("clang: virtual include files are found, with quotes, brackets and folders",
          "[compiler]") {
  CompileRequest r = request(
      "#include \"helpers.h\"\n#include <lib/scale.h>\n"
      "__kernel void k(__global float* o) { o[get_global_id(0)] = scale(add_one(o[0])); }\n",
      BinaryFormat::spirv);
  r.includes = {{"helpers.h", "inline float add_one(float x) { return x + 1.0f; }\n"},
                {"lib/scale.h",
                 "#include \"factor.h\"\ninline float scale(float x) { return x * FACTOR; }\n"},
                {"lib/factor.h", "#define FACTOR 3.0f\n"}};
  const CompileResult result = clang_compiler().compile(r);
  INFO(result.log);
  CHECK(result.succeeded);

  // An error inside a virtual include names that file.
  r.includes[0].content = "inline float add_one(float x) {\n  return x + oops;\n}\n";
  const CompileResult broken = clang_compiler().compile(r);
  REQUIRE_FALSE(broken.succeeded);
  const Diagnostic* error = first_error(broken);
  REQUIRE(error != nullptr);
  CHECK(error->file == "helpers.h");
  CHECK(error->line == 2);

  // The same name twice with different contents is refused.
  r.includes.push_back({"helpers.h", "// another\n"});
  const CompileResult twice = clang_compiler().compile(r);
  CHECK_FALSE(twice.succeeded);
  CHECK(twice.log.find("helpers.h") != std::string::npos);
}

TEST_CASE("clang: -D macros reach the source", "[compiler]") {
  const char* source =
      "#ifndef WIDTH\n#error WIDTH is not defined\n#endif\n"
      "__kernel void k(__global int* o) { o[0] = WIDTH * FLAG; }\n";
  CHECK_FALSE(clang_compiler().compile(request(source, BinaryFormat::spir_bitcode)).succeeded);
  const CompileResult result = clang_compiler().compile(
      request(source, BinaryFormat::spir_bitcode, {"-DWIDTH=16", "-D FLAG"}));
  INFO(result.log);
  CHECK(result.succeeded);
  const CompileResult one_string = clang_compiler().compile(
      request(source, BinaryFormat::spir_bitcode, {"-DWIDTH=16 -DFLAG=2 -cl-mad-enable"}));
  INFO(one_string.log);
  CHECK(one_string.succeeded);
}

TEST_CASE("clang: OpenCL options and -O levels are accepted", "[compiler]") {
  for (const char* option :
       {"-O0", "-O1", "-O3", "-cl-opt-disable", "-cl-fast-relaxed-math", "-cl-denorms-are-zero",
        "-cl-finite-math-only", "-w", "-cl-kernel-arg-info", "-cl-std=CL3.0"}) {
    const CompileResult result =
        clang_compiler().compile(request(vector_add_source, BinaryFormat::ptx, {option}));
    INFO(option << ": " << result.log);
    CHECK(result.succeeded);
  }
}

TEST_CASE("clang: a bad option is a clear error, not an exception", "[compiler]") {
  const CompileResult result =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {"-fno-such-flag"}));
  INFO(result.log);
  REQUIRE_FALSE(result.succeeded);
  REQUIRE(first_error(result) != nullptr);
  CHECK(result.log.find("-fno-such-flag") != std::string::npos);

  for (const char* option : {"-mllvm", "-target", "-x"}) {
    const CompileResult refused =
        clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {option}));
    INFO(refused.log);
    CHECK_FALSE(refused.succeeded);
    CHECK(refused.log.find(option) != std::string::npos);
  }
  const CompileResult bad_std =
      clang_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {"-cl-std=CL9.9"}));
  CHECK_FALSE(bad_std.succeeded);
  CHECK(bad_std.log.find("CL9.9") != std::string::npos);
}

TEST_CASE("clang: an empty source is a clear error", "[compiler]") {
  const CompileResult result = clang_compiler().compile(request("", BinaryFormat::spirv));
  REQUIRE_FALSE(result.succeeded);
  REQUIRE(first_error(result) != nullptr);
  CHECK(result.log.find("empty") != std::string::npos);
}

TEST_CASE("clang: kernel properties", "[compiler]") {
  const char* source = R"(
typedef struct { float x, y, z; int n; } Params;
__attribute__((reqd_work_group_size(64, 2, 1)))
__kernel void reduce(__global const float* in, __constant float* weights, __local float* scratch,
                     float factor, int count, Params params, ulong seed) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)] * weights[0] * factor + params.x + count + seed;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) scratch[0] += scratch[1];
}
__kernel void tile(__global float* out) {
  __local float shared[16];
  shared[get_local_id(0)] = 1.0f;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[15 - get_local_id(0)];
}
__kernel void plain(__global int* out) { out[get_global_id(0)] = 7; }
)";
  for (BinaryFormat format : {BinaryFormat::spir_bitcode, BinaryFormat::spirv, BinaryFormat::ptx,
                              BinaryFormat::llvm_bitcode}) {
    const CompileResult result =
        clang_compiler().compile(request(source, format, {"-cl-std=CL2.0"}));
    INFO(to_string(format) << ": " << result.log);
    REQUIRE(result.succeeded);
    REQUIRE(result.kernels.size() == 3);
    const KernelInfo* reduce = find_kernel(result, "reduce");
    REQUIRE(reduce != nullptr);
    REQUIRE(reduce->args.size() == 7);
    CHECK(reduce->args[0].name == "in");
    CHECK(reduce->args[0].kind == KernelArgKind::global_pointer);
    CHECK(reduce->args[0].size == 8);
    CHECK(reduce->args[1].kind == KernelArgKind::constant_pointer);
    CHECK(reduce->args[2].kind == KernelArgKind::local_pointer);
    CHECK(reduce->args[3].kind == KernelArgKind::scalar);
    CHECK(reduce->args[3].size == 4);
    CHECK(reduce->args[4].size == 4);
    CHECK(reduce->args[5].kind == KernelArgKind::scalar);
    CHECK(reduce->args[5].size == 16);
    CHECK(reduce->args[6].size == 8);
    CHECK(reduce->required_work_group_size == std::array<std::size_t, 3>{64, 2, 1});
    CHECK(reduce->uses_barriers);
    CHECK(reduce->uses_local_memory);

    const KernelInfo* tile = find_kernel(result, "tile");
    REQUIRE(tile != nullptr);
    CHECK(tile->uses_barriers);
    CHECK(tile->uses_local_memory);
    CHECK(tile->required_work_group_size == std::array<std::size_t, 3>{0, 0, 0});

    const KernelInfo* plain = find_kernel(result, "plain");
    REQUIRE(plain != nullptr);
    CHECK_FALSE(plain->uses_barriers);
    CHECK_FALSE(plain->uses_local_memory);
  }
}

TEST_CASE("clang: image and sampler arguments", "[compiler]") {
  const CompileResult result = clang_compiler().compile(
      request("__kernel void k(read_only image2d_t img, sampler_t s, __global float4* o) {\n"
              "  o[0] = read_imagef(img, s, (int2)(0, 0));\n}\n",
              BinaryFormat::spir_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  const KernelInfo* kernel = find_kernel(result, "k");
  REQUIRE(kernel != nullptr);
  REQUIRE(kernel->args.size() == 3);
  CHECK(kernel->args[0].kind == KernelArgKind::image);
  CHECK(kernel->args[1].kind == KernelArgKind::sampler);
  CHECK(kernel->args[2].kind == KernelArgKind::global_pointer);
}

TEST_CASE("clang: -I finds headers on disk and -cl-std=clc++2021 works for OpenCL C input",
          "[compiler]") {
  TempDir dir;
  dir.write("include/on_disk.h", "#define FROM_DISK 5\n");
  const CompileResult result = clang_compiler().compile(
      request("#include <on_disk.h>\n__kernel void k(__global int* o) { o[0] = FROM_DISK; }\n",
              BinaryFormat::spir_bitcode, {"-I", (dir.path() / "include").string()}));
  INFO(result.log);
  CHECK(result.succeeded);

  const CompileResult cpp =
      clang_compiler().compile(request("template <class T> T id(T v) { return v; }\n"
                                       "__kernel void k(__global int* o) { o[0] = id(1); }\n",
                                       BinaryFormat::spirv, {"-cl-std=clc++2021"}));
  INFO(cpp.log);
  CHECK(cpp.succeeded);
}
