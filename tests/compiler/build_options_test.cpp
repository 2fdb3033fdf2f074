// The OpenCL standard build options (OpenCL 3.0 API specification, 5.8.6), on every
// target each compiler produces and with both compiler components: what each must do to
// the module (read from the IR the compiler emits for the target, `emit_ir`, through
// llvm-dis) and, where the back end shows it, to the finished binary. -cl-opt-disable had
// no effect before (the frontend always passed -O2, which wins over it in clang).
#include <catch2/catch.hpp>

#include <cstdio>
#include <functional>
#include <string>

#include "compiler_test_support.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

std::string run_tool(const std::string& tool, const std::vector<std::byte>& binary) {
  TempDir dir;
  const fs::path file = dir.write("input", as_text(binary));
  const std::string command = tool + " '" + file.string() + "' -o - 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  REQUIRE(pclose(pipe) == 0);
  return output;
}

struct Outputs {
  std::string ir;  // llvm-dis of the emit_ir module for the target
  CompileResult binary;
};

// The IR and the finished binary of `source` with `options` for `target`.
Outputs compile_both(Compiler& compiler, const std::string& source, BinaryFormat target,
                     std::vector<std::string> options) {
  CompileRequest ir_request = request(source, target, options);
  ir_request.emit_ir = true;
  const CompileResult ir = compiler.compile(ir_request);
  INFO(to_string(target) << " " << ir.log);
  REQUIRE(ir.succeeded);
  Outputs outputs{run_tool(PLEXUS_TEST_LLVM_DIS, ir.binary),
                  compiler.compile(request(source, target, std::move(options)))};
  INFO(outputs.binary.log);
  REQUIRE(outputs.binary.succeeded);
  return outputs;
}

// For each compiler and target: `check(target, with, without)` on `source` compiled with
// `options` and without.
void each_target(const std::string& source, const std::vector<std::string>& options,
                 const std::function<void(BinaryFormat, const Outputs&, const Outputs&)>& check) {
  for (const auto& compiler : compilers_under_test()) {
    for (const BinaryFormat target : compiler->targets()) {
      INFO("target " << to_string(target) << ", options " << options.front());
      const Outputs with = compile_both(*compiler, source, target, options);
      const Outputs without = compile_both(*compiler, source, target, {});
      check(target, with, without);
    }
  }
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* const arithmetic = R"(
float scaled(float x, float y) { return x * y + 1.0f; }
__kernel void k(__global float* a, __global const float* b) {
  size_t i = get_global_id(0);
  a[i] = scaled(a[i], b[i]) / b[i];
}
)";

}  // namespace

TEST_CASE("options: -cl-opt-disable leaves the code unoptimised", "[compiler][options]") {
  each_target(arithmetic, {"-cl-opt-disable"}, [](BinaryFormat target, const Outputs& with,
                                                  const Outputs& without) {
    CHECK(has(with.ir, "optnone"));
    CHECK(has(with.ir, "alloca"));
    CHECK_FALSE(has(without.ir, "optnone"));
    CHECK_FALSE(has(without.ir, "alloca"));
    if (target == BinaryFormat::ptx) {  // unoptimised PTX keeps its stack frame
      CHECK(has(as_text(with.binary.binary), "__local_depot"));
      CHECK_FALSE(has(as_text(without.binary.binary), "__local_depot"));
    }
    if (target == BinaryFormat::spirv) {  // function-local variables stay
      CHECK(has(run_tool("spirv-dis", with.binary.binary), "Function"));
      CHECK(with.binary.binary.size() > without.binary.binary.size());
    }
  });
}

TEST_CASE("options: the floating-point options reach every function", "[compiler][options]") {
  const auto attribute = [](const std::string& option, const std::string& expected,
                            const std::string& flags) {
    each_target(arithmetic, {option}, [&](BinaryFormat, const Outputs& with, const Outputs& without) {
      CHECK(has(with.ir, expected));
      CHECK_FALSE(has(without.ir, expected));
      if (!flags.empty()) {
        CHECK(has(with.ir, flags));
        CHECK_FALSE(has(without.ir, flags));
      }
    });
  };
  attribute("-cl-mad-enable", "\"less-precise-fpmad\"=\"true\"", "");
  attribute("-cl-no-signed-zeros", "\"no-signed-zeros-fp-math\"=\"true\"", "nsz float");
  attribute("-cl-finite-math-only", "\"no-infs-fp-math\"=\"true\"", "nnan ninf float");
  attribute("-cl-unsafe-math-optimizations", "\"unsafe-fp-math\"=\"true\"", "arcp");
  attribute("-cl-fast-relaxed-math", "\"no-nans-fp-math\"=\"true\"", "fmul fast");
  attribute("-cl-denorms-are-zero", "\"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\"",
            "");
}

TEST_CASE("options: -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__", "[compiler][options]") {
  const std::string source = "#ifndef __FAST_RELAXED_MATH__\n#error no macro\n#endif\n" +
                             std::string(arithmetic);
  for (const auto& compiler : compilers_under_test()) {
    CHECK(compiler->compile(request(source, BinaryFormat::spirv, {"-cl-fast-relaxed-math"}))
              .succeeded);
    const CompileResult without = compiler->compile(request(source, BinaryFormat::spirv));
    CHECK_FALSE(without.succeeded);
    CHECK(has(without.log, "no macro"));
  }
}

TEST_CASE("options: -cl-denorms-are-zero flushes denormals in PTX", "[compiler][options]") {
  each_target(arithmetic, {"-cl-denorms-are-zero"},
              [](BinaryFormat target, const Outputs& with, const Outputs& without) {
                if (target != BinaryFormat::ptx) return;
                CHECK(has(as_text(with.binary.binary), ".ftz.f32"));
                CHECK_FALSE(has(as_text(without.binary.binary), ".ftz.f32"));
              });
}

TEST_CASE("options: -cl-single-precision-constant makes double constants float",
          "[compiler][options]") {
  const char* source = R"(
__kernel void k(__global float* a) { size_t i = get_global_id(0); a[i] = a[i] * 1.1 + 0.5; }
)";
  each_target(source, {"-cl-single-precision-constant"},
              [](BinaryFormat, const Outputs& with, const Outputs& without) {
                CHECK(has(without.ir, "double"));
                CHECK_FALSE(has(with.ir, "double"));
              });
}

TEST_CASE("options: -cl-kernel-arg-info keeps the argument names", "[compiler][options]") {
  each_target(arithmetic, {"-cl-kernel-arg-info"},
              [](BinaryFormat, const Outputs& with, const Outputs& without) {
                CHECK(has(with.ir, "!kernel_arg_name"));
                CHECK_FALSE(has(without.ir, "!kernel_arg_name"));
              });
}

TEST_CASE("options: -cl-std selects the OpenCL C version", "[compiler][options]") {
  for (const auto& compiler : compilers_under_test()) {
    for (const auto& [option, version] : std::vector<std::pair<std::string, std::string>>{
             {"-cl-std=CL1.2", "120"}, {"-cl-std=CL2.0", "200"}, {"-cl-std=CL3.0", "300"}}) {
      const std::string source = "#if __OPENCL_C_VERSION__ != " + version +
                                 "\n#error wrong version\n#endif\n" + arithmetic;
      for (const BinaryFormat target : compiler->targets()) {
        const CompileResult result = compiler->compile(request(source, target, {option}));
        INFO(option << " " << to_string(target) << ": " << result.log);
        CHECK(result.succeeded);
      }
    }
    // Generic pointers need 2.0 or later.
    const char* generic = R"(
void store(float* p, float v) { *p = v; }
__kernel void k(__global float* a) { store(&a[get_global_id(0)], 1.0f); }
)";
    CHECK(compiler->compile(request(generic, BinaryFormat::spirv, {"-cl-std=CL2.0"})).succeeded);
    CHECK_FALSE(compiler->compile(request(generic, BinaryFormat::spirv, {"-cl-std=CL1.2"})).succeeded);
    const CompileResult unknown = compiler->compile(request(arithmetic, BinaryFormat::spirv,
                                                            {"-cl-std=CL9.9"}));
    CHECK_FALSE(unknown.succeeded);
    CHECK(has(unknown.log, "CL9.9"));
  }
}

TEST_CASE("options: -w silences warnings, -Werror makes them errors", "[compiler][options]") {
  const char* source = R"(
__kernel void k(__global int* a) { a[0]; a[1] = 2; }
)";
  for (const auto& compiler : compilers_under_test()) {
    for (const BinaryFormat target : compiler->targets()) {
      INFO(to_string(target));
      const CompileResult plain = compiler->compile(request(source, target));
      REQUIRE(plain.succeeded);
      CHECK(has(plain.log, "warning"));
      const CompileResult quiet = compiler->compile(request(source, target, {"-w"}));
      CHECK(quiet.succeeded);
      CHECK_FALSE(has(quiet.log, "warning"));
      const CompileResult strict = compiler->compile(request(source, target, {"-Werror"}));
      CHECK_FALSE(strict.succeeded);
      CHECK(has(strict.log, "error"));
    }
  }
}

TEST_CASE("options: -D and -I, joined and separate", "[compiler][options]") {
  TempDir dir;
  dir.write("include/factor.h", "#define FACTOR 5\n");
  const std::string include = (dir.path() / "include").string();
  const char* source = R"(
#include <factor.h>
#if FACTOR != 5 || SCALE != 3 || !defined(FLAG)
#error macros not set
#endif
__kernel void k(__global int* a) { a[get_global_id(0)] *= FACTOR * SCALE; }
)";
  for (const auto& compiler : compilers_under_test()) {
    for (const BinaryFormat target : compiler->targets()) {
      INFO(to_string(target));
      const CompileResult joined =
          compiler->compile(request(source, target, {"-I" + include, "-DSCALE=3", "-DFLAG"}));
      INFO(joined.log);
      CHECK(joined.succeeded);
      const CompileResult separate =
          compiler->compile(request(source, target, {"-I " + include + " -D SCALE=3 -D FLAG"}));
      INFO(separate.log);
      CHECK(separate.succeeded);
      const CompileResult missing = compiler->compile(request(source, target, {"-DSCALE=3"}));
      CHECK_FALSE(missing.succeeded);
    }
  }
}
