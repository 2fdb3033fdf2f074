// compiler/clang's precompiled <sycl/sycl.hpp> (Frontend, PrecompiledHeaders, SyclPrefix):
// the same binaries with and without it, built once per command line and kept in the cache
// store (another compiler finds it there: equal bytes), never reused after an option or a
// header it read changed, diagnostics still at the user's line, and not used for sources
// whose first line is not #include <sycl/sycl.hpp>.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cache_test_support.hpp"
#include "sycl_sources.hpp"

using namespace plexus;
using test::WrappingStore;

namespace {

CompileRequest sycl_request(std::string source, BinaryFormat target,
                            std::vector<std::string> options = {}) {
  return test::request(std::move(source), target, std::move(options), SourceLanguage::sycl);
}

bool is_pch(const CacheKey& key) { return test::is_key_of(key, "pch/"); }

// How many PCHs the compilers over `store` built (each one built is stored once).
std::size_t pch_builds(const WrappingStore& store) {
  const std::vector<CacheKey> keys = store.stored();
  return static_cast<std::size_t>(std::count_if(keys.begin(), keys.end(), is_pch));
}

// A compiler/clang over `store` with `options` (TOML lines of [compiler.clang]).
std::shared_ptr<Compiler> clang_over(WrappingStore& store, const std::string& options = "") {
  return test::load_compiler("clang", options, &store);
}

const std::string kernel_of_value =
    "#include <sycl/sycl.hpp>\n"
    "extern \"C\" SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((sycl::ext::oneapi::experimental::"
    "nd_range_kernel<1>))\n"
    "void k(int* out) { out[0] = VALUE; }\n";

}  // namespace

TEST_CASE("SYCL sources compile to the same binaries with and without the precompiled headers",
          "[sycl][pch]") {
  auto set = test::cached_compiler_set();
  // Only PCHs are kept, so that every compile below runs the frontend.
  WrappingStore pch_only(*set->cache(), is_pch);
  const auto with = clang_over(pch_only);
  const auto without = test::load_compiler("clang", "sycl_pch = false");
  for (BinaryFormat target : with->targets()) {
    DYNAMIC_SECTION(to_string(target)) {
      bool skipped = false;
      for (const auto& [name, source] :
           {std::pair{"own_kernels", test::own_kernels_source()},
            std::pair{"group_kernels", test::group_kernels_source()}}) {
        INFO(name);
        CompileRequest request = sycl_request(source, target);
        if (std::string(name) == "own_kernels")
          request.registered_names = {"ops::scale<float>", "ops::scale<int>"};
        const CompileResult b = without->compile(request);
        INFO(b.log);
        if (!b.succeeded && b.log.find("cannot read the device library") != std::string::npos) {
          WARN(to_string(target) << " skipped: its device library is not installed here");
          skipped = true;  // a GPU machine's pack, which carries its own GPUs' libraries only
          break;
        }
        REQUIRE(b.succeeded);
        const CompileResult a = with->compile(request);
        INFO(a.log);
        REQUIRE(a.succeeded);
        CHECK_FALSE(a.frontend_cache_hit);
        test::require_same_kernels(a.kernels, b.kernels);
        CHECK(a.binary == b.binary);
      }
      // One PCH for the target's command line: built by the first source, reused by the next.
      if (!skipped) CHECK(pch_builds(pch_only) == 1);
    }
  }
}

TEST_CASE("the precompiled SYCL headers are kept in the cache store: another compiler uses "
          "them and gets the same bytes",
          "[sycl][pch]") {
  auto set = test::cached_compiler_set();
  WrappingStore pch_only(*set->cache(), is_pch);
  const CompileRequest request = sycl_request(test::own_kernels_source(), BinaryFormat::spirv);
  const CompileResult cold = clang_over(pch_only)->compile(request);
  INFO(cold.log);
  REQUIRE(cold.succeeded);
  REQUIRE(pch_builds(pch_only) == 1);
  // A new compiler (a new process, as far as the component knows): the PCH from the store.
  const CompileResult warm = clang_over(pch_only)->compile(request);
  INFO(warm.log);
  REQUIRE(warm.succeeded);
  CHECK_FALSE(warm.frontend_cache_hit);
  CHECK(pch_builds(pch_only) == 1);
  CHECK(warm.binary == cold.binary);
}

TEST_CASE("a changed option never reuses a precompiled header built with another",
          "[sycl][pch]") {
  auto set = test::cached_compiler_set();
  WrappingStore recording(*set->cache());
  const auto compiler = clang_over(recording);
  for (const char* value : {"1", "2"}) {
    const CompileResult result = compiler->compile(sycl_request(
        kernel_of_value + "static_assert(VALUE == " + value + ", \"VALUE\");\n",
        BinaryFormat::spir_bitcode, {std::string("-DVALUE=") + value}));
    INFO(result.log);
    CHECK(result.succeeded);
  }
  CHECK(pch_builds(recording) == 2);
  // __OPTIMIZE__ is in the PCH: -O0 after -O2 needs its own (Clang refuses a mismatch).
  const CompileResult unoptimised = compiler->compile(
      sycl_request(kernel_of_value, BinaryFormat::spir_bitcode, {"-DVALUE=1", "-O0"}));
  INFO(unoptimised.log);
  CHECK(unoptimised.succeeded);
  CHECK(pch_builds(recording) == 3);
  // Another target: another PCH; the same command line again: none.
  CHECK(compiler->compile(sycl_request(kernel_of_value, BinaryFormat::llvm_bitcode, {"-DVALUE=1"}))
            .succeeded);
  CHECK(pch_builds(recording) == 4);
  CHECK(compiler->compile(sycl_request(kernel_of_value + "// again\n", BinaryFormat::spir_bitcode,
                                       {"-DVALUE=2"}))
            .succeeded);
  CHECK(pch_builds(recording) == 4);
}

TEST_CASE("a changed header on disk never reuses a precompiled header that read it",
          "[sycl][pch]") {
  // A resource directory of our own whose opencl-c-base.h (which the PCH holds) we change.
  const test::TempDir resources;
  const std::filesystem::path include = resources.path() / "include";
  std::filesystem::create_directories(include);
  // The resource directory the compiler uses here (PLEXUS_CLANG_RESOURCE_DIR where set, as
  // on a GPU machine's pack), else the one found at build time.
  const char* configured = std::getenv("PLEXUS_CLANG_RESOURCE_DIR");
  const std::filesystem::path real =
      std::filesystem::path(configured && *configured ? configured
                                                      : PLEXUS_TEST_CLANG_RESOURCE_DIR) /
      "include";
  for (const char* file : {"opencl-c-base.h", "opencl-c.h"})
    std::filesystem::copy_file(real / file, include / file);
  const std::string base = test::read_text(include / "opencl-c-base.h");
  const auto write_mark = [&](const std::string& mark, int hours_ago) {
    std::ofstream(include / "opencl-c-base.h", std::ios::trunc)
        << base << "\n#define PLEXUS_MARK " << mark << "\n";
    std::filesystem::last_write_time(include / "opencl-c-base.h",
                                     std::filesystem::file_time_type::clock::now() -
                                         std::chrono::hours(hours_ago));
  };
  auto set = test::cached_compiler_set();
  WrappingStore recording(*set->cache());
  const auto compiler =
      clang_over(recording, "resource_dir = \"" + resources.path().string() + "\"");
  const auto check_mark = [&](const std::string& mark) {
    const CompileResult result = compiler->compile(sycl_request(
        "#include <sycl/sycl.hpp>\nstatic_assert(PLEXUS_MARK == " + mark + ", \"stale\");\n" +
            kernel_of_value.substr(kernel_of_value.find('\n') + 1),
        BinaryFormat::spirv, {"-DVALUE=3"}));
    INFO(result.log);
    CHECK(result.succeeded);
  };
  write_mark("1", 2);
  check_mark("1");
  CHECK(pch_builds(recording) == 1);
  write_mark("22", 1);
  check_mark("22");
  CHECK(pch_builds(recording) == 2);
}

TEST_CASE("with the precompiled headers, diagnostics stay at the user's line", "[sycl][pch]") {
  const std::string source = test::plain_cpp_error_source();
  auto set = test::cached_compiler_set();
  WrappingStore recording(*set->cache());
  const auto compiler = clang_over(recording);
  for (BinaryFormat target : {BinaryFormat::spirv, BinaryFormat::llvm_bitcode}) {
    DYNAMIC_SECTION(to_string(target)) {
      const CompileResult result = compiler->compile(sycl_request(source, target));
      INFO(result.log);
      REQUIRE_FALSE(result.succeeded);
      CHECK(pch_builds(recording) >= 1);  // the PCH was used
      const Diagnostic* error = test::first_error(result);
      REQUIRE(error != nullptr);
      CHECK(error->file == "kernel.cpp");
      CHECK(error->line == 5);
      CHECK(error->column == 7);
      CHECK(result.log.find("kernel.cpp:5:7: error: cannot initialize a variable of type") !=
            std::string::npos);
      CHECK(result.log.find("kernel.cpp:6:") != std::string::npos);
      for (const Diagnostic& diagnostic : result.diagnostics) {
        CHECK(diagnostic.file.find("__plexus") == std::string::npos);
        CHECK(diagnostic.file.find(".pch") == std::string::npos);
      }
    }
  }
}

TEST_CASE("sources whose first line is not #include <sycl/sycl.hpp> compile without the PCH",
          "[sycl][pch]") {
  auto set = test::cached_compiler_set();
  WrappingStore recording(*set->cache());
  const auto compiler = clang_over(recording);
  // A macro before the include could change how the headers parse.
  const CompileResult defined_first = compiler->compile(
      sycl_request("#define VALUE 5\n" + kernel_of_value, BinaryFormat::spir_bitcode));
  INFO(defined_first.log);
  CHECK(defined_first.succeeded);
  // A virtual include file that takes the place of a header.
  CompileRequest shadowing = sycl_request(kernel_of_value, BinaryFormat::spir_bitcode, {"-DVALUE=1"});
  shadowing.includes = {{"sycl/plexus/extra.hpp", "#define EXTRA 1\n"}};
  const CompileResult shadowed = compiler->compile(shadowing);
  INFO(shadowed.log);
  CHECK(shadowed.succeeded);
  // An include path of the user's.
  const CompileResult include_path = compiler->compile(
      sycl_request(kernel_of_value, BinaryFormat::spir_bitcode, {"-DVALUE=1", "-I/nonexistent"}));
  INFO(include_path.log);
  CHECK(include_path.succeeded);
  CHECK(pch_builds(recording) == 0);
}

TEST_CASE("compiles on many threads at once build one precompiled header and share it",
          "[sycl][pch]") {
  auto set = test::cached_compiler_set();
  WrappingStore pch_only(*set->cache(), is_pch);
  const auto compiler = clang_over(pch_only);
  const std::string source = test::own_kernels_source();
  std::vector<CompileResult> results(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] {
      // Each its own source (a different comment line), so no cache level answers.
      results[i] = compiler->compile(sycl_request(source + "// thread " + std::to_string(i) + "\n",
                                                  BinaryFormat::spir_bitcode));
    });
  for (std::thread& thread : threads) thread.join();
  for (const CompileResult& result : results) {
    INFO(result.log);
    CHECK(result.succeeded);
    CHECK(result.binary == results[0].binary);
  }
  CHECK(pch_builds(pch_only) == 1);
}
