// compiler/clang's precompiled SYCL collectives (collectives_library.hpp, group_library.hpp):
// SPIR targets link a library of the work-group reduce and scan instances built once per
// command line, only for a module that calls it, and kept in the cache store; another compiler finds it there and gets the
// same bytes; a frontend-cache hit gives the bytes of a cold compile; the library is part of
// the frontend cache identity; PTX, AMDGCN and the host compile the collectives from the
// headers. (That the kernels still run verified, each with its own scratch, on the host and
// PoCL: sycl_groups.)
#include <catch2/catch.hpp>

#include <algorithm>

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

}  // namespace

TEST_CASE("SPIR targets link the precompiled collectives, built once and kept in the cache store",
          "[sycl][collectives]") {
  for (BinaryFormat target : {BinaryFormat::spirv, BinaryFormat::spir_bitcode}) {
    DYNAMIC_SECTION(to_string(target)) {
      auto set = test::cached_compiler_set();
      // Only the PCHs and libraries are kept, so that every compile below runs the frontend.
      WrappingStore built_only(*set->cache(), is_built);
      const auto first = test::load_compiler("clang", "", &built_only);
      // A source without collectives: no library built.
      CHECK(first->compile(sycl_request(test::seed_vec_add_source(), target)).succeeded);
      CHECK(library_builds(built_only) == 0);
      const CompileRequest request = sycl_request(test::group_kernels_source(), target);
      const CompileResult cold = first->compile(request);
      INFO(cold.log);
      REQUIRE(cold.succeeded);
      CHECK(library_builds(built_only) == 1);
      // The same compiler again, another source: the library it keeps.
      const auto compiler = test::load_compiler("clang", "", &built_only);
      const CompileResult own = compiler->compile(sycl_request(test::own_kernels_source() +
                                                               "// another source\n", target));
      CHECK(own.succeeded);
      CHECK(library_builds(built_only) == 1);
      // A new compiler (a new process): the library from the store, the same bytes.
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
  const auto with = test::load_compiler("clang", "binary_cache = false", &store);
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

TEST_CASE("the host, PTX and AMDGCN compile the collectives from the headers",
          "[sycl][collectives]") {
  auto set = test::cached_compiler_set();
  WrappingStore store(*set->cache());
  const auto compiler = test::load_compiler("clang", "", &store);
  for (BinaryFormat target : compiler->targets()) {
    if (target == BinaryFormat::spirv || target == BinaryFormat::spir_bitcode) continue;
    DYNAMIC_SECTION(to_string(target)) {
      const CompileResult result =
          compiler->compile(sycl_request(test::group_kernels_source(), target));
      INFO(result.log);
      if (!result.succeeded && result.log.find("cannot read the device library") != std::string::npos) {
        WARN(to_string(target) << " skipped: its device library is not installed here");
      } else {
        CHECK(result.succeeded);
      }
      CHECK(library_builds(store) == 0);
    }
  }
}
