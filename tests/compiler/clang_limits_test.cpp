// compiler/clang: inputs with no limits must end as build errors, never end or hang the
// process: a million nested unary '-' (a stack overflow before), #include of /dev/zero and
// of a FIFO (out of memory / a hang before), a macro that expands to 2^30 tokens (out of
// memory before), a source over max_source_bytes, a compile past timeout_s, and a source
// with thousands of errors (a log of thousands of lines before: no error limit).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "compiler_test_support.hpp"
#include "test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

CompileResult compile_source(Compiler& compiler, std::string source) {
  return compiler.compile(request(std::move(source), BinaryFormat::llvm_bitcode));
}

void require_refused(const CompileResult& result, const std::string& part) {
  INFO(result.log);
  CHECK_FALSE(result.succeeded);
  CHECK_THAT(result.log, Catch::Contains(part));
}

std::string nested_minus(std::size_t depth) {
  std::string source = "__kernel void k(__global int* o) { o[0] = ";
  for (std::size_t i = 0; i < depth; ++i) source += "- ";
  return source + "1; }\n";
}

// A macro whose expansion grows `fan` times at each level: fan^levels copies of `x`.
std::string macro_bomb(int levels, int fan = 2) {
  std::string source = "#define M0 x\n";
  for (int i = 1; i <= levels; ++i) {
    source += "#define M" + std::to_string(i);
    for (int copy = 0; copy < fan; ++copy) source += " M" + std::to_string(i - 1);
    source += "\n";
  }
  return source + "__kernel void k(__global int* o) { int x = 0; o[0] = M" +
         std::to_string(levels) + "; }\n";
}

}  // namespace

TEST_CASE("clang: a million nested unary minus is a build error, not a stack overflow",
          "[compiler]") {
  require_refused(compile_source(clang_compiler(), nested_minus(1000000)), "nests too deeply");
  // Deep but reasonable nesting still compiles.
  const CompileResult fine = compile_source(clang_compiler(), nested_minus(2000));
  INFO(fine.log);
  CHECK(fine.succeeded);
}

TEST_CASE("clang: includes of devices and FIFOs are refused without reading them",
          "[compiler]") {
  require_refused(compile_source(clang_compiler(), "#include \"/dev/zero\"\n__kernel void k() {}\n"),
                  "'/dev/zero' is not a regular file");
  TempDir dir;
  const std::string fifo = (dir.path() / "pipe.h").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  require_refused(compile_source(clang_compiler(), "#include \"" + fifo + "\"\n__kernel void k() {}\n"),
                  "pipe.h' is not a regular file");
}

TEST_CASE("clang: a macro that expands to 2^30 tokens is a build error", "[compiler]") {
  // At the default limits it stops after max_errors (20): every token after the first is a
  // parse error (the test below). With no error limit to speak of, max_tokens stops it,
  // here 2^12 (the default, 2^22, takes the same check; reaching 2^22 one error per token
  // took about 40 s of the test suite).
  require_refused(compile_source(clang_compiler(), macro_bomb(30)), "stops after 20 errors");
  auto limited = load_clang_compiler("max_tokens = 4096\nmax_errors = 2147483647\n");
  require_refused(compile_source(*limited, macro_bomb(30)),
                  "more than 4096 tokens (max_tokens of [compiler.clang])");
}

TEST_CASE("clang: sources and included files over max_source_bytes are refused", "[compiler]") {
  auto small = load_clang_compiler("max_source_bytes = 4096\n");
  require_refused(compile_source(*small, std::string(5000, ' ') + "__kernel void k() {}\n"),
                  "more than max_source_bytes (4096)");
  TempDir dir;
  const auto big = dir.path() / "big.h";
  std::ofstream(big) << std::string(8192, ' ');
  require_refused(compile_source(*small, "#include \"" + big.string() + "\"\n__kernel void k() {}\n"),
                  "big.h' has 8192 bytes, more than max_source_bytes (4096)");
}

TEST_CASE("clang: timeout_s ends a frontend run that takes too long", "[compiler]") {
  // 8^9 = 2^27 tokens, few macro expansions per token (little memory): well past a second
  // of preprocessing, under the token and error limits set here.
  auto limited =
      load_clang_compiler("timeout_s = 1\nmax_tokens = 268435456\nmax_errors = 2147483647\n");
  require_refused(compile_source(*limited, macro_bomb(9, 8)), "longer than 1 s (timeout_s");
}

namespace {

// A kernel with `count` errors, one per line (an undeclared name each).
std::string many_errors(int count) {
  std::string source = "__kernel void k(__global int* o) {\n";
  for (int i = 0; i < count; ++i)
    source += "  o[" + std::to_string(i) + "] = undeclared_" + std::to_string(i) + ";\n";
  return source + "}\n";
}

std::size_t errors_in(const CompileResult& result) {
  std::size_t errors = 0;
  for (const Diagnostic& diagnostic : result.diagnostics)
    errors += diagnostic.severity == DiagnosticSeverity::error ? 1 : 0;
  return errors;
}

}  // namespace

TEST_CASE("clang and process: a source with thousands of errors stops at max_errors and says so",
          "[compiler]") {
  // Both components give clang -cc1 the same limit (FrontendOptions): 20 errors by default,
  // then one fatal error naming the option; the log stays a few dozen lines, not 5000.
  const auto compilers = compilers_under_test();
  for (std::size_t i = 0; i < compilers.size(); ++i) {
    const std::string name = i == 0 ? "clang" : "process";  // compilers_under_test's order
    INFO(name);
    const CompileResult result = compile_source(*compilers[i], many_errors(5000));
    CHECK_FALSE(result.succeeded);
    CHECK(errors_in(result) == 21);  // 20, then "too many errors"
    CHECK_THAT(result.log, Catch::Contains("the frontend stops after 20 errors (max_errors of "
                                           "[compiler." + name + "])"));
    CHECK(std::count(result.log.begin(), result.log.end(), '\n') < 100);
  }
  // The option sets it; a source with fewer errors than the limit shows them all.
  auto three = load_clang_compiler("max_errors = 3\n");
  const CompileResult limited = compile_source(*three, many_errors(5000));
  CHECK(errors_in(limited) == 4);
  CHECK_THAT(limited.log, Catch::Contains("stops after 3 errors (max_errors of [compiler.clang])"));
  const CompileResult all = compile_source(*three, many_errors(3));
  CHECK(errors_in(all) == 3);
  CHECK_THAT(all.log, !Catch::Contains("max_errors"));
}
