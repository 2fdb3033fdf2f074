// compiler/process: diagnostics parsed from clang-15's output (file, line, column, the
// user's names instead of temporary paths), include files, and the clear errors for bad
// options, empty sources, unknown kernels and garbage inputs.
#include <catch2/catch.hpp>

#include "process_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("process: a compile error comes back as a diagnostic with line and column",
          "[compiler]") {
  const char* source =
      "__kernel void broken(__global int* out) {\n"
      "  int x = 1;\n"
      "  out[0] = x + undeclared_name;\n"
      "}\n";
  const CompileResult result = process_compiler().compile(request(source, BinaryFormat::spirv));
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
  CHECK(result.log.find("plexus-process-") == std::string::npos);
}

TEST_CASE("process: diagnostics name the source as source_name gives it", "[compiler]") {
  CompileRequest r =
      request("__kernel void k(__global int* o) {\n  o[0] = nope;\n}\n", BinaryFormat::ptx);
  r.source_name = "some/dir/saxpy.cl";
  const CompileResult result = process_compiler().compile(r);
  INFO(result.log);
  REQUIRE_FALSE(result.succeeded);
  const Diagnostic* error = first_error(result);
  REQUIRE(error != nullptr);
  CHECK(error->file == "some/dir/saxpy.cl");
  CHECK(error->line == 2);
  CHECK(result.log.find("some/dir/saxpy.cl:2:") != std::string::npos);
  CHECK(result.log.find("plexus-process-") == std::string::npos);
}

TEST_CASE("process: a source_name path makes \"\" includes resolve beside it on disk",
          "[compiler]") {
  TempDir dir;
  dir.write("params.h", "#define SCALE 4\n");
  const fs::path file = dir.write("scale.cl", "");
  CompileRequest r =
      request("#include \"params.h\"\n__kernel void s(__global int* o) { o[0] = SCALE; }\n",
              BinaryFormat::spirv);
  r.source_name = file.string();
  const CompileResult result = process_compiler().compile(r);
  require_valid_spirv(result);
}

TEST_CASE("process: warnings are reported and do not fail the build", "[compiler]") {
  const CompileResult result = process_compiler().compile(
      request("__kernel void k(__global int* out) {\n  int unused_value;\n#warning look here\n}\n",
              BinaryFormat::spir_bitcode));
  INFO(result.log);
  REQUIRE(result.succeeded);
  bool warned = false;
  for (const Diagnostic& d : result.diagnostics)
    warned = warned || (d.severity == DiagnosticSeverity::warning && d.line == 3 &&
                        d.file == "kernel.cl" && d.message.find("look here") != std::string::npos);
  CHECK(warned);
}

TEST_CASE("process: a missing include names the file", "[compiler]") {
  const CompileResult result = process_compiler().compile(
      request("#include \"not_there.h\"\n__kernel void k(__global int* o) { o[0] = 1; }\n",
              BinaryFormat::spirv));
  INFO(result.log);
  REQUIRE_FALSE(result.succeeded);
  const Diagnostic* error = first_error(result);
  REQUIRE(error != nullptr);
  CHECK(error->file == "kernel.cl");
  CHECK(error->line == 1);
  CHECK(error->message.find("not_there.h") != std::string::npos);
  CHECK(result.log.find("plexus-process-") == std::string::npos);
}

TEST_CASE("process: virtual include files are found, with quotes, brackets and folders",
          "[compiler]") {
  CompileRequest r = request(
      "#include \"common.h\"\n#include <lib/math/ops.h>\n"
      "__kernel void k(__global int* o) { o[0] = twice(BASE); }\n",
      BinaryFormat::ptx);
  r.includes = {{"common.h", "#define BASE 21\n"},
                {"lib/math/ops.h", "inline int twice(int v) { return 2 * v; }\n"}};
  const CompileResult result = process_compiler().compile(r);
  INFO(result.log);
  REQUIRE(result.succeeded);

  CompileRequest broken = r;
  broken.includes[1].content = "inline int twice(int v) {\n  return 2 * nope;\n}\n";
  const CompileResult failed = process_compiler().compile(broken);
  INFO(failed.log);
  REQUIRE_FALSE(failed.succeeded);
  const Diagnostic* error = first_error(failed);
  REQUIRE(error != nullptr);
  CHECK(error->file == "lib/math/ops.h");
  CHECK(error->line == 2);

  CompileRequest escaping = r;
  escaping.includes.push_back({"../outside.h", "x"});
  CHECK_FALSE(process_compiler().compile(escaping).succeeded);
}

TEST_CASE("process: bad options are clear errors, not exceptions", "[compiler]") {
  for (const char* option : {"-fno-such-option", "-mllvm -debug", "-target x86_64", "-Xclang -v"}) {
    const CompileResult result =
        process_compiler().compile(request(vector_add_source, BinaryFormat::spirv, {option}));
    INFO(option << ": " << result.log);
    CHECK_FALSE(result.succeeded);
    CHECK_FALSE(result.log.empty());
    CHECK(first_error(result) != nullptr);
  }
  const CompileResult unknown = process_compiler().compile(
      request(vector_add_source, BinaryFormat::spirv, {"-fno-such-option"}));
  CHECK(unknown.log.find("-fno-such-option") != std::string::npos);
  const CompileResult defined =
      process_compiler().compile(request("__kernel void k(__global int* o) { o[0] = VALUE; }",
                                         BinaryFormat::spirv, {"-DVALUE=3 -O0"}));
  INFO(defined.log);
  CHECK(defined.succeeded);
}

TEST_CASE("process: an empty source, an unknown kernel and garbage inputs are clear errors",
          "[compiler]") {
  const CompileResult empty = process_compiler().compile(request("", BinaryFormat::spirv));
  CHECK_FALSE(empty.succeeded);
  CHECK(empty.log.find("empty") != std::string::npos);

  CompileRequest r = request(vector_add_source, BinaryFormat::ptx);
  r.kernel_name = "missing_kernel";
  const CompileResult unknown = process_compiler().compile(r);
  INFO(unknown.log);
  CHECK_FALSE(unknown.succeeded);
  CHECK(unknown.log.find("missing_kernel") != std::string::npos);
  CHECK(unknown.log.find("vadd") != std::string::npos);

  const std::string garbage = std::string("\x13\x37garbage\x00\xff\xfe not a module at all", 31);
  const CompileResult bitcode = process_compiler().compile(
      request(garbage, BinaryFormat::spir_bitcode, {}, SourceLanguage::llvm_bitcode));
  INFO(bitcode.log);
  CHECK_FALSE(bitcode.succeeded);
  CHECK(bitcode.log.find("not valid LLVM bitcode") != std::string::npos);

  const CompileResult spirv =
      process_compiler().compile(request(garbage, BinaryFormat::spirv, {}, SourceLanguage::spirv));
  CHECK_FALSE(spirv.succeeded);
  CHECK(spirv.log.find("not a SPIR-V module") != std::string::npos);

  // A valid header with nonsense after it: the translator fails (or crashes) in its own
  // process, which is reported, and this process goes on.
  std::string bad_spirv("\x03\x02\x23\x07\x00\x00\x01\x00", 8);
  bad_spirv += std::string(56, '\x05');
  const CompileResult crashed = process_compiler().compile(
      request(bad_spirv, BinaryFormat::spir_bitcode, {}, SourceLanguage::spirv));
  INFO(crashed.log);
  CHECK_FALSE(crashed.succeeded);
  CHECK(crashed.log.find("llvm-spirv") != std::string::npos);

  const CompileResult ir = process_compiler().compile(
      request("this is not IR", BinaryFormat::ptx, {}, SourceLanguage::llvm_ir_text));
  CHECK_FALSE(ir.succeeded);
  CHECK(first_error(ir) != nullptr);
}
