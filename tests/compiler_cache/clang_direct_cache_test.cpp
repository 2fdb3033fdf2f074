// compiler/clang's direct mode: a repeated compile finds its binary through a manifest of the
// headers it read, without preprocessing; a changed header (even with its size and
// modification time restored) is never served stale; a touched but unchanged header still
// hits; direct_cache = false turns it off.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "cache_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const scaled_source = R"(
#include "direct_factor.h"
__kernel void scaled(__global float* data) {
  data[get_global_id(0)] *= FACTOR;
}
)";

// A header on disk, dated an hour back (a file written within the last seconds is "too new"
// for a manifest, as in ccache).
class DiskHeader {
 public:
  DiskHeader() : dir_(fs::temp_directory_path() / ("plexus-direct-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~DiskHeader() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  void write(const std::string& factor, fs::file_time_type when) {
    std::ofstream(path()) << "#define FACTOR " << factor << "\n";
    fs::last_write_time(path(), when);
  }
  fs::path path() const { return dir_ / "direct_factor.h"; }
  CompileRequest request_for(BinaryFormat target) const {
    CompileRequest r = test::request(scaled_source, target);
    r.options = {"-I", dir_.string()};
    return r;
  }

 private:
  fs::path dir_;
};

std::size_t direct_stores(const WrappingStore& store) {
  const auto keys = store.stored();
  return static_cast<std::size_t>(std::count_if(
      keys.begin(), keys.end(), [](const CacheKey& key) { return is_key_of(key, "direct/"); }));
}

}  // namespace

TEST_CASE("clang direct cache: hits without preprocessing, never stale after a header change",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  WrappingStore recording(*set->cache());
  const auto compiler = clang_compiler_over(&recording);
  DiskHeader header;
  const auto an_hour_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  header.write("2.0f", an_hour_ago);

  const CompileResult first = compiler->compile(header.request_for(BinaryFormat::spirv));
  INFO(first.log);
  REQUIRE(first.succeeded);
  CHECK_FALSE(first.binary_cache_hit);
  REQUIRE(direct_stores(recording) == 1);
  const std::size_t stores_after_first = recording.stored().size();

  // Unchanged: a direct hit stores nothing (a level-2 hit through the preprocessor would
  // rewrite the manifest).
  const CompileResult second = compiler->compile(header.request_for(BinaryFormat::spirv));
  REQUIRE(second.binary_cache_hit);
  CHECK(second.binary == first.binary);
  CHECK(recording.stored().size() == stores_after_first);

  // Touched, same content: still a direct hit (the content hash matches).
  fs::last_write_time(header.path(), an_hour_ago + std::chrono::minutes(5));
  const CompileResult touched = compiler->compile(header.request_for(BinaryFormat::spirv));
  CHECK(touched.binary_cache_hit);
  CHECK(touched.binary == first.binary);
  CHECK(recording.stored().size() == stores_after_first);

  // Changed content with the same size and the original modification time restored: the
  // manifest's size and time match, the content hash must not.
  header.write("3.0f", an_hour_ago);
  fs::last_write_time(header.path(), an_hour_ago + std::chrono::minutes(5));
  const CompileResult changed = compiler->compile(header.request_for(BinaryFormat::spirv));
  REQUIRE(changed.succeeded);
  CHECK_FALSE(changed.binary_cache_hit);
  CHECK(changed.binary != first.binary);
  CHECK(direct_stores(recording) == 2);  // the manifest now names the new binary

  // And back: the old binary's level-2 entry is found again through the preprocessor.
  header.write("2.0f", an_hour_ago);
  const CompileResult back = compiler->compile(header.request_for(BinaryFormat::spirv));
  CHECK(back.binary_cache_hit);
  CHECK(back.binary == first.binary);
}

TEST_CASE("clang direct cache: a header newer than a few seconds gets no manifest, and "
          "direct_cache = false turns it off",
          "[compiler][cache]") {
  DiskHeader header;
  SECTION("too new") {
    auto set = cached_compiler_set();
    WrappingStore recording(*set->cache());
    const auto compiler = clang_compiler_over(&recording);
    const auto written = fs::file_time_type::clock::now();
    header.write("2.0f", written);
    REQUIRE(compiler->compile(header.request_for(BinaryFormat::spirv)).succeeded);
    // Too new while the compile took less than the 2 s window (tens of ms here; a loaded
    // machine can hold a process off its core for seconds, and then a manifest is right).
    if (fs::file_time_type::clock::now() - written < std::chrono::milliseconds(1500))
      CHECK(direct_stores(recording) == 0);
    else
      WARN("the compile took over 1.5 s: the header was no longer too new, not checked");
    CHECK(compiler->compile(header.request_for(BinaryFormat::spirv)).binary_cache_hit);
  }
  SECTION("off") {
    auto set = cached_compiler_set("direct_cache = false");
    header.write("2.0f", fs::file_time_type::clock::now() - std::chrono::hours(1));
    Compiler& compiler = *set->compiler();
    REQUIRE(compiler.compile(header.request_for(BinaryFormat::spirv)).succeeded);
    CHECK(set->cache()->stats().stores == 2);  // frontend and binary, no manifest
    CHECK(compiler.compile(header.request_for(BinaryFormat::spirv)).binary_cache_hit);
  }
}
