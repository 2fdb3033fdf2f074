// compiler/clang: CompileRequest::source_name (what diagnostics call the source, and where
// "" includes resolve) and CompileRequest::kernel_name (keep one kernel).
#include <catch2/catch.hpp>

#include "compiler_test_support.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const two_kernels = R"(
float helper_for_first(float x) { return x * 2.0f; }
__kernel void first(__global float* x) { x[get_global_id(0)] = helper_for_first(x[0]); }
__kernel void second(__global float* x, __local float* scratch) {
  scratch[get_local_id(0)] = x[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  x[get_global_id(0)] = scratch[0];
}
)";

}  // namespace

TEST_CASE("clang: source_name names the source in diagnostics", "[compiler]") {
  CompileRequest r =
      request("__kernel void k(__global int* o) {\n  o[0] = missing;\n}\n", BinaryFormat::spirv);
  r.source_name = "saxpy.cl";
  const CompileResult result = clang_compiler().compile(r);
  REQUIRE_FALSE(result.succeeded);
  REQUIRE_FALSE(result.diagnostics.empty());
  CHECK(result.diagnostics[0].file == "saxpy.cl");
  CHECK(result.diagnostics[0].line == 2);
  CHECK(result.log.find("saxpy.cl:2:10: error: ") != std::string::npos);

  CompileRequest ir = request("define void @f() {\n  ret i32 0\n}\n", BinaryFormat::ptx, {},
                              SourceLanguage::llvm_ir_text);
  ir.source_name = "module.ll";
  const CompileResult bad_ir = clang_compiler().compile(ir);
  REQUIRE_FALSE(bad_ir.diagnostics.empty());
  CHECK(bad_ir.diagnostics[0].file == "module.ll");
}

TEST_CASE("clang: a source_name path makes \"\" includes resolve beside it on disk", "[compiler]") {
  TempDir dir;
  dir.write("kernels/beside.h", "#define FACTOR 3\n");
  dir.write("kernels/broken.h", "int broken(void) { return nothing; }\n");
  CompileRequest r =
      request("#include \"beside.h\"\n__kernel void k(__global int* o) { o[0] = FACTOR; }\n",
              BinaryFormat::spir_bitcode);
  r.source_name = (dir.path() / "kernels" / "k.cl").string();  // the file itself need not exist
  const CompileResult result = clang_compiler().compile(r);
  INFO(result.log);
  CHECK(result.succeeded);

  r.source = "#include \"broken.h\"\n__kernel void k(__global int* o) {\n  o[0] = oops;\n}\n";
  const CompileResult broken = clang_compiler().compile(r);
  REQUIRE_FALSE(broken.succeeded);
  bool names_header = false, names_source = false;
  for (const Diagnostic& d : broken.diagnostics) {
    names_header = names_header || d.file == (dir.path() / "kernels" / "broken.h").string();
    names_source = names_source || (d.file == r.source_name && d.line == 3);
  }
  CHECK(names_header);
  CHECK(names_source);
}

TEST_CASE("clang: kernel_name keeps one kernel and what it calls", "[compiler]") {
  for (BinaryFormat format : {BinaryFormat::spirv, BinaryFormat::spir_bitcode, BinaryFormat::ptx,
                              BinaryFormat::llvm_bitcode}) {
    CompileRequest r = request(two_kernels, format);
    r.kernel_name = "second";
    const CompileResult result = clang_compiler().compile(r);
    INFO(to_string(format) << ": " << result.log);
    REQUIRE(result.succeeded);
    REQUIRE(result.kernels.size() == 1);
    CHECK(result.kernels[0].name == "second");
    CHECK(result.kernels[0].uses_barriers);
    const std::string binary = as_text(result.binary);
    CHECK(binary.find("first") == std::string::npos);
    if (format == BinaryFormat::ptx) CHECK(binary.find(".entry second") != std::string::npos);
  }
  CompileRequest r = request(two_kernels, BinaryFormat::ptx);
  r.kernel_name = "first";
  const CompileResult first = clang_compiler().compile(r);
  INFO(first.log);
  REQUIRE(first.succeeded);
  REQUIRE(first.kernels.size() == 1);
  CHECK(as_text(first.binary).find(".entry first") != std::string::npos);
  CHECK(as_text(first.binary).find("second") == std::string::npos);
}

TEST_CASE("clang: a kernel_name the source does not define lists the kernels", "[compiler]") {
  CompileRequest r = request(two_kernels, BinaryFormat::spirv);
  r.kernel_name = "third";
  const CompileResult result = clang_compiler().compile(r);
  CHECK_FALSE(result.succeeded);
  CHECK(result.log.find("third") != std::string::npos);
  CHECK(result.log.find("first, second") != std::string::npos);
}
