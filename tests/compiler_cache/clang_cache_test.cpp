// compiler/clang's cache through cache/memory: level 1 (frontend bitcode and warnings,
// keyed by the preprocessed source, options and target spec) and level 2 (the finished
// binary), what changes a key and what does not, warnings replayed, failures not cached,
// the frontend_cache option, corrupted entries, and many threads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <thread>

#include "cache_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const scale_source = R"(
#include "factor.h"
__kernel void scale(__global float* data) {
  size_t i = get_global_id(0);
  data[i] = data[i] * FACTOR;
}
)";

// Warns once in the frontend (a literal that loses its fraction).
const char* const warning_source = R"(
__kernel void truncating(__global int* out) {
  int x = 1.5f; /* a comment */
  out[get_global_id(0)] = x;
}
)";

CompileRequest scale_request(BinaryFormat target, const std::string& factor = "2.0f") {
  CompileRequest r = request(scale_source, target);
  r.includes = {{"factor.h", "#define FACTOR " + factor + "\n"}};
  return r;
}

bool missed(const CompileResult& result) {
  return result.succeeded && !result.frontend_cache_hit && !result.binary_cache_hit;
}

}  // namespace

TEST_CASE("clang cache: a repeated compile hits level 2 with the same bytes and kernels",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  CacheStore& store = *set->cache();
  for (BinaryFormat format : {BinaryFormat::spirv, BinaryFormat::ptx, BinaryFormat::llvm_bitcode}) {
    INFO(to_string(format));
    const CacheStats before = store.stats();
    const CompileResult first = compiler.compile(scale_request(format));
    INFO(first.log);
    REQUIRE(missed(first));
    CHECK(store.stats().stores == before.stores + 3);  // frontend, binary, direct manifest

    const CompileResult second = compiler.compile(scale_request(format));
    REQUIRE(second.succeeded);
    CHECK(second.binary_cache_hit);
    CHECK_FALSE(second.frontend_cache_hit);  // the frontend did not run at all
    CHECK(second.format == format);
    CHECK(second.binary == first.binary);
    CHECK(second.log == first.log);
    require_same_kernels(second.kernels, first.kernels);
    CHECK(store.stats().stores == before.stores + 3);
  }
}

TEST_CASE("clang cache: emit_ir results are not binaries: neither stored nor served as one",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  CompileRequest ir_request = scale_request(BinaryFormat::ptx);
  ir_request.emit_ir = true;
  const CompileResult ir = compiler.compile(ir_request);
  INFO(ir.log);
  REQUIRE(ir.succeeded);
  CHECK(ir.format == BinaryFormat::llvm_bitcode);
  CHECK(as_text(ir.binary).find("nvptx64-nvidia-nvcl") != std::string::npos);
  const CompileResult ptx = compiler.compile(scale_request(BinaryFormat::ptx));
  REQUIRE(ptx.succeeded);
  CHECK_FALSE(ptx.binary_cache_hit);
  CHECK(ptx.frontend_cache_hit);  // the frontend's IR is the same either way
  CHECK(ptx.format == BinaryFormat::ptx);
  CHECK(as_text(ptx.binary).find(".entry scale") != std::string::npos);
  const CompileResult again = compiler.compile(ir_request);  // not the cached PTX
  REQUIRE(again.succeeded);
  CHECK_FALSE(again.binary_cache_hit);
  CHECK(again.format == BinaryFormat::llvm_bitcode);
}

TEST_CASE("clang cache: binary_cache = false keeps only the frontend level",
          "[compiler][cache]") {
  auto set = cached_compiler_set("binary_cache = false");
  Compiler& compiler = *set->compiler();
  CacheStore& store = *set->cache();
  const CompileResult first = compiler.compile(scale_request(BinaryFormat::spirv));
  INFO(first.log);
  REQUIRE(missed(first));
  CHECK(store.stats().stores == 1);  // the frontend's entry only
  const CompileResult second = compiler.compile(scale_request(BinaryFormat::spirv));
  REQUIRE(second.succeeded);
  CHECK(second.frontend_cache_hit);
  CHECK_FALSE(second.binary_cache_hit);
  CHECK(second.binary == first.binary);
  CHECK(store.stats().stores == 1);
}

TEST_CASE("clang cache: another target of the same source reuses the frontend (level 1)",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  REQUIRE(missed(compiler.compile(scale_request(BinaryFormat::spir_bitcode))));
  // SPIR-V has the same frontend target (spir64, typed pointers) as SPIR bitcode.
  const CompileResult spirv = compiler.compile(scale_request(BinaryFormat::spirv));
  CHECK(spirv.frontend_cache_hit);
  CHECK_FALSE(spirv.binary_cache_hit);
  require_valid_spirv(spirv);
  // The same bytes as a compile without any cache.
  const auto uncached = clang_compiler_over(nullptr);
  const CompileResult reference = uncached->compile(scale_request(BinaryFormat::spirv));
  CHECK(spirv.binary == reference.binary);
  require_same_kernels(spirv.kernels, reference.kernels);

  // kernel_name is a level-2 matter: the frontend result is shared.
  REQUIRE(missed(compiler.compile(scale_request(BinaryFormat::ptx))));
  CompileRequest one = scale_request(BinaryFormat::ptx);
  one.kernel_name = "scale";
  const CompileResult selected = compiler.compile(one);
  INFO(selected.log);
  CHECK(selected.frontend_cache_hit);
  CHECK(as_text(selected.binary).find(".entry scale") != std::string::npos);
}

TEST_CASE("clang cache: an include's content, a -D option or the architecture change the key",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  REQUIRE(missed(compiler.compile(scale_request(BinaryFormat::ptx))));

  const CompileResult other_include = compiler.compile(scale_request(BinaryFormat::ptx, "3.0f"));
  CHECK(missed(other_include));
  CHECK(as_text(other_include.binary).find("0f40400000") != std::string::npos);  // 3.0f

  CompileRequest defined = scale_request(BinaryFormat::ptx);
  defined.options = {"-DUNUSED_BY_THE_SOURCE=1"};
  CHECK(missed(compiler.compile(defined)));
  defined.options = {"-DUNUSED_BY_THE_SOURCE=2"};
  CHECK(missed(compiler.compile(defined)));

  CompileRequest sm75 = scale_request(BinaryFormat::ptx);
  sm75.target_architecture = "sm_75";
  const CompileResult for_sm75 = compiler.compile(sm75);
  CHECK(missed(for_sm75));
  CHECK(as_text(for_sm75.binary).find(".target sm_75") != std::string::npos);
  CHECK(compiler.compile(sm75).binary_cache_hit);

  CompileRequest renamed = scale_request(BinaryFormat::ptx);
  renamed.source_name = "other.cl";  // diagnostics and debug info name the file
  CHECK(missed(compiler.compile(renamed)));
}

// The design: the key is the preprocessed text with line markers, so comments and the
// spacing between tokens of a line do not matter (the same tokens on the same lines) but
// adding or removing lines, or re-indenting a line, does (the first token's column is kept;
// diagnostic locations and debug info follow lines).
TEST_CASE("clang cache: comments within a line hit, a moved line misses", "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  const CompileResult first = compiler.compile(request(warning_source, BinaryFormat::spirv));
  REQUIRE(missed(first));

  std::string recommented = warning_source;
  recommented.replace(recommented.find("/* a comment */"), 15, "// another comment");
  recommented.replace(recommented.find("] = x;"), 6, "]    =   x;");
  const CompileResult same_tokens = compiler.compile(request(recommented, BinaryFormat::spirv));
  CHECK(same_tokens.binary_cache_hit);
  CHECK(same_tokens.binary == first.binary);

  std::string reindented = warning_source;
  reindented.replace(reindented.find("  out["), 2, "\t");
  CHECK(missed(compiler.compile(request(reindented, BinaryFormat::spirv))));

  const std::string moved = std::string("\n// a new first line\n") + warning_source;
  const CompileResult other_lines = compiler.compile(request(moved, BinaryFormat::spirv));
  CHECK(missed(other_lines));
  REQUIRE_FALSE(other_lines.diagnostics.empty());
  REQUIRE_FALSE(first.diagnostics.empty());
  CHECK(other_lines.diagnostics[0].line == first.diagnostics[0].line + 2);
}

TEST_CASE("clang cache: warnings are replayed on level-1 and level-2 hits", "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  const CompileResult cold = compiler.compile(request(warning_source, BinaryFormat::spir_bitcode));
  REQUIRE(missed(cold));
  REQUIRE(cold.diagnostics.size() == 1);
  CHECK(cold.diagnostics[0].severity == DiagnosticSeverity::warning);
  CHECK(cold.diagnostics[0].line == 3);
  CHECK(cold.log.find("kernel.cl:3:") != std::string::npos);

  const CompileResult level2 =
      compiler.compile(request(warning_source, BinaryFormat::spir_bitcode));
  CHECK(level2.binary_cache_hit);
  CHECK(level2.log == cold.log);
  REQUIRE(level2.diagnostics.size() == 1);
  CHECK(level2.diagnostics[0].message == cold.diagnostics[0].message);
  CHECK(level2.diagnostics[0].file == "kernel.cl");

  const CompileResult level1 = compiler.compile(request(warning_source, BinaryFormat::spirv));
  CHECK(level1.frontend_cache_hit);
  CHECK(level1.log == cold.log);
  REQUIRE(level1.diagnostics.size() == 1);
  CHECK(level1.diagnostics[0].line == 3);
  CHECK(level1.diagnostics[0].column == cold.diagnostics[0].column);
}

TEST_CASE("clang cache: a failed compile is not cached", "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  const char* broken = "__kernel void k(__global int* o) {\n  o[0] = missing;\n}\n";
  const CacheStats before = set->cache()->stats();
  const CompileResult first = compiler.compile(request(broken, BinaryFormat::spirv));
  REQUIRE_FALSE(first.succeeded);
  CHECK(set->cache()->stats().stores == before.stores);
  CHECK(set->cache()->stats().entries == before.entries);
  const CompileResult again = compiler.compile(request(broken, BinaryFormat::spirv));
  CHECK_FALSE(again.succeeded);
  CHECK_FALSE(again.frontend_cache_hit);
  CHECK_FALSE(again.binary_cache_hit);
  CHECK(again.log == first.log);
  CHECK(set->cache()->stats().stores == before.stores);
}

TEST_CASE("clang cache: frontend_cache = false, or no cache store, caches nothing",
          "[compiler][cache]") {
  auto off = cached_compiler_set("frontend_cache = false");
  REQUIRE(off->cache() != nullptr);
  const CacheStats before = off->cache()->stats();
  for (int i = 0; i < 2; ++i) {
    const CompileResult result = off->compiler()->compile(scale_request(BinaryFormat::spirv));
    CHECK(missed(result));
  }
  const CacheStats after = off->cache()->stats();
  CHECK(after.stores == before.stores);
  CHECK(after.hits == before.hits);
  CHECK(after.misses == before.misses);  // not even looked up
  CHECK(after.entries == 0);

  auto none = cached_compiler_set("", /*with_cache=*/false);
  REQUIRE(none->cache() == nullptr);
  for (int i = 0; i < 2; ++i)
    CHECK(missed(none->compiler()->compile(scale_request(BinaryFormat::spirv))));
}

TEST_CASE("clang cache: bitcode, IR and SPIR-V inputs skip level 1 but use level 2",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  const CompileResult bitcode = compiler.compile(scale_request(BinaryFormat::spir_bitcode));
  REQUIRE(bitcode.succeeded);
  const CompileResult spirv = compiler.compile(scale_request(BinaryFormat::spirv));
  REQUIRE(spirv.succeeded);

  CompileRequest from_bitcode =
      request(as_text(bitcode.binary), BinaryFormat::spirv, {}, SourceLanguage::llvm_bitcode);
  const CacheStats before = set->cache()->stats();
  const CompileResult first = compiler.compile(from_bitcode);
  REQUIRE(missed(first));
  CHECK(set->cache()->stats().stores == before.stores + 1);  // the binary only
  const CompileResult second = compiler.compile(from_bitcode);
  CHECK(second.binary_cache_hit);
  CHECK_FALSE(second.frontend_cache_hit);
  CHECK(second.binary == first.binary);

  CompileRequest from_spirv =
      request(as_text(spirv.binary), BinaryFormat::spir_bitcode, {}, SourceLanguage::spirv);
  const CompileResult spirv_first = compiler.compile(from_spirv);
  INFO(spirv_first.log);
  REQUIRE(missed(spirv_first));
  const CompileResult spirv_again = compiler.compile(from_spirv);
  CHECK(spirv_again.binary_cache_hit);
  CHECK(spirv_again.binary == spirv_first.binary);
  REQUIRE(spirv_again.kernels.size() == 1);
  CHECK(spirv_again.kernels[0].name == "scale");
  // A failed input is not cached either.
  const CompileResult wrong = compiler.compile(
      request(as_text(spirv.binary), BinaryFormat::ptx, {}, SourceLanguage::spirv));
  CHECK_FALSE(wrong.succeeded);
  CHECK_FALSE(
      compiler.compile(request(as_text(spirv.binary), BinaryFormat::ptx, {}, SourceLanguage::spirv))
          .binary_cache_hit);
}

TEST_CASE("clang cache: a corrupted or truncated entry is a miss and is replaced",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  WrappingStore recording(*set->cache());
  const auto compiler = clang_compiler_over(&recording);
  const CompileResult reference = compiler->compile(scale_request(BinaryFormat::spirv));
  REQUIRE(missed(reference));
  const std::vector<CacheKey> keys = recording.stored();
  REQUIRE(keys.size() == 3);
  REQUIRE(is_key_of(keys[0], "frontend/"));
  REQUIRE(is_key_of(keys[1], "binary/"));
  REQUIRE(is_key_of(keys[2], "direct/spirv/"));
  CHECK(keys[0].image.size() == 64);
  CHECK(keys[0].build_options.find("-triple spir64-unknown-unknown") != std::string::npos);

  using Damage = std::function<std::vector<std::byte>(std::vector<std::byte>)>;
  const std::vector<std::pair<const char*, Damage>> damages = {
      {"garbage",
       [](std::vector<std::byte>) {
         const std::string text = "not a cache entry at all";
         std::vector<std::byte> out;
         for (char c : text) out.push_back(static_cast<std::byte>(c));
         return out;
       }},
      {"a flipped byte in the payload",
       [](std::vector<std::byte> v) {
         v[v.size() / 2] ^= std::byte{0x5a};
         return v;
       }},
      {"a flipped byte in the header",
       [](std::vector<std::byte> v) {
         v[9] ^= std::byte{1};  // the format version
         return v;
       }},
      {"truncated",
       [](std::vector<std::byte> v) {
         v.resize(v.size() - 7);
         return v;
       }},
      {"empty", [](std::vector<std::byte>) { return std::vector<std::byte>{}; }},
  };
  for (const auto& [name, damage] : damages) {
    INFO(name);
    // Every level damaged (the direct manifest too): the compile runs in full and replaces
    // every entry.
    for (const CacheKey& key : keys) {
      std::optional<std::vector<std::byte>> value = set->cache()->load(key);
      REQUIRE(value);
      set->cache()->store(key, damage(std::move(*value)));
    }
    const CompileResult recompiled = compiler->compile(scale_request(BinaryFormat::spirv));
    CHECK(missed(recompiled));
    CHECK(recompiled.binary == reference.binary);
    const CompileResult hit = compiler->compile(scale_request(BinaryFormat::spirv));
    CHECK(hit.binary_cache_hit);
    CHECK(hit.binary == reference.binary);

    // Only the binary damaged: the frontend result is still used.
    std::optional<std::vector<std::byte>> value = set->cache()->load(keys[1]);
    REQUIRE(value);
    set->cache()->store(keys[1], damage(std::move(*value)));
    const CompileResult from_level1 = compiler->compile(scale_request(BinaryFormat::spirv));
    CHECK(from_level1.frontend_cache_hit);
    CHECK(from_level1.binary == reference.binary);
  }

  // A valid entry stored under another key is refused too (the entry names its key).
  std::optional<std::vector<std::byte>> level2 = set->cache()->load(keys[1]);
  REQUIRE(level2);
  CompileRequest other = scale_request(BinaryFormat::spirv, "5.0f");
  REQUIRE(missed(compiler->compile(other)));
  const std::vector<CacheKey> all = recording.stored();
  const auto other_binary_it = std::find_if(all.rbegin(), all.rend(), [](const CacheKey& key) {
    return is_key_of(key, "binary/");
  });
  REQUIRE(other_binary_it != all.rend());
  const CacheKey other_binary = *other_binary_it;
  set->cache()->store(other_binary, *level2);
  const CompileResult refused = compiler->compile(other);
  CHECK_FALSE(refused.binary_cache_hit);
  CHECK(refused.frontend_cache_hit);
  CHECK(refused.binary != reference.binary);
}

TEST_CASE("clang cache: four threads compiling the same and different sources",
          "[compiler][cache]") {
  auto set = cached_compiler_set();
  Compiler& compiler = *set->compiler();
  const auto uncached = clang_compiler_over(nullptr);
  struct Case {
    CompileRequest request;
    CompileResult expected;
  };
  std::vector<Case> cases;
  for (BinaryFormat format : {BinaryFormat::spirv, BinaryFormat::ptx})
    for (const char* factor : {"2.0f", "4.0f", "8.0f"}) {
      CompileRequest r = scale_request(format, factor);
      cases.push_back({r, uncached->compile(r)});
      REQUIRE(cases.back().expected.succeeded);
    }
  std::atomic<int> wrong{0}, hits{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 6; ++round) {
        // Threads 0 and 1 walk the cases in the same order, 2 and 3 in others.
        const Case& c = cases[(round * (t < 2 ? 1 : t) + t / 2) % cases.size()];
        const CompileResult result = compiler.compile(c.request);
        if (!result.succeeded || result.binary != c.expected.binary ||
            result.kernels.size() != c.expected.kernels.size())
          ++wrong;
        if (result.frontend_cache_hit || result.binary_cache_hit) ++hits;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == 0);
  CHECK(hits > 0);
}

TEST_CASE("clang cache: a frontend-cache hit gives the bytes of a cold compile, for every target",
          "[compiler][cache]") {
  // Content hashes of binaries downstream (a binary cache, a SYCLBIN, a build system) must
  // not depend on whether the frontend ran. A struct type, a helper function and a
  // work-item call: what the device libraries are linked for.
  const char* const source = R"(
typedef struct { float scale; int offset; } params_t;
static float apply(params_t p, float x) { return p.scale * x + (float)p.offset; }
__kernel void shifted(__global float* data, params_t p) {
  size_t i = get_global_id(0);
  data[i] = apply(p, data[i]);
}
)";
  auto set = cached_compiler_set("binary_cache = false");
  Compiler& compiler = *set->compiler();
  for (BinaryFormat format :
       {BinaryFormat::llvm_bitcode, BinaryFormat::spir_bitcode, BinaryFormat::spirv, BinaryFormat::ptx}) {
    INFO(to_string(format));
    const auto cold_compiler = clang_compiler_over(nullptr);  // no cache at all, a fresh component
    const CompileResult cold = cold_compiler->compile(request(source, format));
    INFO(cold.log);
    REQUIRE(cold.succeeded);
    const CompileResult first = compiler.compile(request(source, format));
    const CompileResult hit = compiler.compile(request(source, format));
    REQUIRE(hit.succeeded);
    CHECK(hit.frontend_cache_hit);
    CHECK(first.binary == cold.binary);
    CHECK(hit.binary == cold.binary);
  }
}
