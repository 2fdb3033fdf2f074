// compiler/clang's precompiled SYCL collectives (collectives_library.hpp, group_library.hpp,
// prebuilt_collectives.hpp): every target links a library of the work-group reduce and scan
// instances. The build made it for the default command lines (lib/plexus/sycl_collectives):
// found there, nothing is built or stored, and the bytes are those of a library built on
// demand; other command lines (and a damaged prebuilt file) build it once, only for a module
// that calls it, and keep it in the cache store, where another compiler finds it and gets the
// same bytes; a frontend-cache hit gives the bytes of a cold compile; the library is part of
// the frontend cache identity. (That the kernels still run verified, each with its own
// scratch, on the host and PoCL: sycl_groups.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cache_test_support.hpp"
#include "sycl_sources.hpp"

using namespace plexus;
using test::WrappingStore;

namespace {

CompileRequest sycl_request(std::string source, BinaryFormat target) {
  return test::request(std::move(source), target, {}, SourceLanguage::sycl);
}

bool is_library(const CacheKey& key) { return test::is_key_of(key, "library/sycl_collectives"); }
bool is_built(const CacheKey& key) { return is_library(key) || test::is_key_of(key, "pch/"); }

std::size_t library_builds(const WrappingStore& store) {
  const std::vector<CacheKey> keys = store.stored();
  return static_cast<std::size_t>(std::count_if(keys.begin(), keys.end(), is_library));
}

// The option that makes a compiler build every library on demand (none prebuilt).
const std::string on_demand = "sycl_collectives_dir = \"\"";

// The result, or nullopt (with a warning) where the target's device library is missing.
std::optional<CompileResult> compile_or_skip(Compiler& compiler, const CompileRequest& request) {
  CompileResult result = compiler.compile(request);
  if (!result.succeeded && result.log.find("cannot read the device library") != std::string::npos) {
    WARN(to_string(request.target) << " skipped: its device library is not installed here");
    return std::nullopt;
  }
  INFO(result.log);
  REQUIRE(result.succeeded);
  return result;
}

std::vector<std::filesystem::path> prebuilt_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".entry") files.push_back(entry.path());
  return files;
}

}  // namespace

TEST_CASE("without a prebuilt library the collectives are built once and kept in the cache store",
          "[sycl][collectives]") {
  for (BinaryFormat target :
       {BinaryFormat::spirv, BinaryFormat::spir_bitcode, BinaryFormat::llvm_bitcode}) {
    DYNAMIC_SECTION(to_string(target)) {
      auto set = test::cached_compiler_set();
      // Only the PCHs and libraries are kept, so that every compile below runs the frontend.
      WrappingStore built_only(*set->cache(), is_built);
      const auto first = test::load_compiler("clang", on_demand, &built_only);
      // A source without collectives: no library built.
      CHECK(first->compile(sycl_request(test::seed_vec_add_source(), target)).succeeded);
      CHECK(library_builds(built_only) == 0);
      const CompileRequest request = sycl_request(test::group_kernels_source(), target);
      const CompileResult cold = first->compile(request);
      INFO(cold.log);
      REQUIRE(cold.succeeded);
      CHECK(library_builds(built_only) == 1);
      // A new compiler (a new process), another source: the library from the store.
      const auto compiler = test::load_compiler("clang", on_demand, &built_only);
      const CompileResult own = compiler->compile(sycl_request(test::own_kernels_source() +
                                                               "// another source\n", target));
      CHECK(own.succeeded);
      CHECK(library_builds(built_only) == 1);
      // The same compiler again: the library it keeps, the same bytes.
      const CompileResult warm = compiler->compile(request);
      INFO(warm.log);
      REQUIRE(warm.succeeded);
      CHECK_FALSE(warm.frontend_cache_hit);
      CHECK(library_builds(built_only) == 1);
      CHECK(warm.binary == cold.binary);
      test::require_same_kernels(warm.kernels, cold.kernels);
    }
  }
}

TEST_CASE("with the precompiled collectives a frontend-cache hit gives a cold compile's bytes, "
          "and the library is part of the frontend cache key",
          "[sycl][collectives]") {
  auto set = test::cached_compiler_set();
  WrappingStore store(*set->cache());
  const auto with = test::load_compiler("clang", "binary_cache = false\n" + on_demand, &store);
  const auto without =
      test::load_compiler("clang", "binary_cache = false\nsycl_collectives = false", &store);
  const CompileRequest request = sycl_request(test::group_kernels_source(), BinaryFormat::spirv);
  const CompileResult cold = with->compile(request);
  INFO(cold.log);
  REQUIRE(cold.succeeded);
  CHECK_FALSE(cold.frontend_cache_hit);
  const CompileResult hit = with->compile(request);
  REQUIRE(hit.succeeded);
  CHECK(hit.frontend_cache_hit);
  CHECK(hit.binary == cold.binary);
  // Without the library: another frontend entry (the headers' bodies), never the library's.
  const CompileResult headers = without->compile(request);
  INFO(headers.log);
  REQUIRE(headers.succeeded);
  CHECK_FALSE(headers.frontend_cache_hit);
  CHECK(headers.binary != cold.binary);
  test::require_same_kernels(headers.kernels, cold.kernels);
  CHECK(library_builds(store) == 1);
}

TEST_CASE("every target links the library the build made for its default command line: "
          "nothing built or stored, the bytes of a library built on demand",
          "[sycl][collectives]") {
  REQUIRE(std::filesystem::is_directory(PLEXUS_TEST_SYCL_COLLECTIVES_DIR));
  CHECK_FALSE(prebuilt_files(PLEXUS_TEST_SYCL_COLLECTIVES_DIR).empty());
  auto set = test::cached_compiler_set();
  WrappingStore store(*set->cache(), [](const CacheKey&) { return false; });  // keeps nothing
  const auto prebuilt = test::load_compiler("clang", "binary_cache = false", &store);
  const auto built = test::load_compiler("clang", "binary_cache = false\n" + on_demand, &store);
  const auto headers =
      test::load_compiler("clang", "binary_cache = false\nsycl_collectives = false", &store);
  for (BinaryFormat target : prebuilt->targets()) {
    DYNAMIC_SECTION(to_string(target)) {
      const CompileRequest request = sycl_request(test::group_kernels_source(), target);
      const std::size_t before = library_builds(store);
      const std::optional<CompileResult> found = compile_or_skip(*prebuilt, request);
      if (!found) continue;
      CHECK(library_builds(store) == before);  // found in the build's directory
      const std::optional<CompileResult> on_demand_result = compile_or_skip(*built, request);
      REQUIRE(on_demand_result);
      CHECK(library_builds(store) == before + 1);
      CHECK(found->binary == on_demand_result->binary);
      test::require_same_kernels(found->kernels, on_demand_result->kernels);
      // Linked: the headers' own collectives give other bytes (the same kernels).
      const std::optional<CompileResult> from_headers = compile_or_skip(*headers, request);
      REQUIRE(from_headers);
      CHECK(from_headers->binary != found->binary);
      test::require_same_kernels(from_headers->kernels, found->kernels);
    }
  }
}

TEST_CASE("another command line, or a damaged or misplaced prebuilt file, builds the library",
          "[sycl][collectives]") {
  auto set = test::cached_compiler_set();
  WrappingStore store(*set->cache(), [](const CacheKey&) { return false; });
  const CompileRequest request = sycl_request(test::group_kernels_source(), BinaryFormat::spirv);
  SECTION("a build option the build made no library for") {
    const auto compiler = test::load_compiler("clang", "binary_cache = false", &store);
    CompileRequest optioned = request;
    optioned.options = {"-DPLEXUS_TEST_OPTION=1"};
    REQUIRE(compile_or_skip(*compiler, optioned));
    CHECK(library_builds(store) == 1);
  }
  SECTION("damaged or misplaced files") {
    const auto reference = test::load_compiler("clang", "binary_cache = false", &store);
    const std::optional<CompileResult> good = compile_or_skip(*reference, request);
    REQUIRE(good);
    const std::vector<std::filesystem::path> files = prebuilt_files(PLEXUS_TEST_SYCL_COLLECTIVES_DIR);
    REQUIRE(files.size() >= 2);
    test::TempDir damaged;
    for (const std::filesystem::path& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      bytes[bytes.size() / 2] ^= 0x5a;  // the checksum no longer matches
      damaged.write(file.filename().string(), bytes);
    }
    test::TempDir swapped;  // each file under another library's name
    for (std::size_t i = 0; i < files.size(); ++i)
      std::filesystem::copy_file(files[i], swapped.path() / files[(i + 1) % files.size()].filename());
    for (const test::TempDir* dir : {&damaged, &swapped}) {
      const auto compiler = test::load_compiler(
          "clang", "binary_cache = false\nsycl_collectives_dir = '" + dir->path().string() + "'",
          &store);
      const std::size_t before = library_builds(store);
      const std::optional<CompileResult> result = compile_or_skip(*compiler, request);
      REQUIRE(result);
      CHECK(library_builds(store) == before + 1);
      CHECK(result->binary == good->binary);
    }
  }
}
