// Helpers for the compiler cache tests: a component set with cache/memory and
// compiler/clang, a clang compiler over a store of the test's choosing (a wrapper that
// records or filters what the compiler stores), spirv-val, and the benchmark kernel.
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "compiler_test_support.hpp"
#include "plexus/cache_store.hpp"
#include "plexus/component_set.hpp"
#include "test_support.hpp"

namespace plexus::test {

// cache/memory and compiler/clang, wired by the core; `clang_options`: TOML lines of
// [compiler.clang]. Without a cache when `with_cache` is false.
inline std::unique_ptr<ComponentSet> cached_compiler_set(const std::string& clang_options = "",
                                                         bool with_cache = true) {
  static const PluginRegistry registry({{build_plugin_dir(), "build tree"}});
  std::string config = with_cache ? "[cache]\nuse = \"memory\"\n" : "";
  config += "[compiler]\nuse = \"clang\"\n[compiler.clang]\n" + clang_options + "\n";
  return std::make_unique<ComponentSet>(Config::from_string(config, "compiler_cache_test.toml"),
                                        registry);
}

// A store in front of another: records every key stored, and stores only the keys
// `keep` accepts (all by default).
class WrappingStore final : public CacheStore {
 public:
  explicit WrappingStore(CacheStore& inner, std::function<bool(const CacheKey&)> keep = nullptr)
      : inner_(inner), keep_(std::move(keep)) {}
  std::optional<std::vector<std::byte>> load(const CacheKey& key) override {
    return inner_.load(key);
  }
  void store(const CacheKey& key, std::span<const std::byte> value) override {
    {
      std::lock_guard lock(mutex_);
      stored_.push_back(key);
    }
    if (!keep_ || keep_(key)) inner_.store(key, value);
  }
  bool erase(const CacheKey& key) override { return inner_.erase(key); }
  CacheStats stats() const override { return inner_.stats(); }
  std::vector<CacheKey> stored() const {
    std::lock_guard lock(mutex_);
    return stored_;
  }

 private:
  CacheStore& inner_;
  std::function<bool(const CacheKey&)> keep_;
  mutable std::mutex mutex_;
  std::vector<CacheKey> stored_;
};

// A clang compiler that sees `store` (nullptr: none) as its cache.
inline std::shared_ptr<Compiler> clang_compiler_over(CacheStore* store) {
  return load_compiler("clang", "", store);
}

inline bool is_key_of(const CacheKey& key, const std::string& level) {
  return key.device.rfind(level, 0) == 0;
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// bench/kernels/monte_carlo.cl with bench/kernels/include/* as virtual files.
inline CompileRequest monte_carlo_request(BinaryFormat target) {
  const fs::path kernels = env_path("PLEXUS_SOURCE_DIR") / "bench" / "kernels";
  CompileRequest r = request(read_text(kernels / "monte_carlo.cl"), target);
  r.source_name = "monte_carlo.cl";
  for (const auto& entry : fs::directory_iterator(kernels / "include"))
    r.includes.push_back({entry.path().filename().string(), read_text(entry.path())});
  return r;
}

inline void require_same_kernels(const std::vector<KernelInfo>& a,
                                 const std::vector<KernelInfo>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].name == b[i].name);
    REQUIRE(a[i].args.size() == b[i].args.size());
    for (std::size_t j = 0; j < a[i].args.size(); ++j) {
      CHECK(a[i].args[j].name == b[i].args[j].name);
      CHECK(a[i].args[j].kind == b[i].args[j].kind);
      CHECK(a[i].args[j].size == b[i].args[j].size);
    }
    CHECK(a[i].required_work_group_size == b[i].required_work_group_size);
    CHECK(a[i].uses_barriers == b[i].uses_barriers);
    CHECK(a[i].uses_local_memory == b[i].uses_local_memory);
    CHECK(a[i].bounds_checked == b[i].bounds_checked);
    CHECK(a[i].cancellable == b[i].cancellable);
  }
}

// A compiler option that makes binaries of their own (checks = "bounds", cancel = ...):
// compiler/clang without and with `option` over one cache store compile `source`.
// `require(result, with_option)` checks a result's flags. Asserts that the optioned binary is
// compiled, not the plain one's cache entry, and that a second compile of each is a binary-
// cache hit with the same bytes and flags.
template <class Require>
void check_own_cache_entry(const std::string& option, const CompileRequest& source,
                           Require require) {
  const auto components = cached_compiler_set();
  CacheStore* store = components->cache();
  REQUIRE(store != nullptr);
  const auto plain = load_compiler("clang", "", store);
  const auto optioned = load_compiler("clang", option, store);

  const CompileResult cold = plain->compile(source);
  require(cold, false);
  const CompileResult first = optioned->compile(source);
  CHECK_FALSE(first.binary_cache_hit);  // not the plain binary
  require(first, true);
  CHECK(first.binary != cold.binary);

  const CompileResult again = optioned->compile(source);
  CHECK(again.binary_cache_hit);
  CHECK(again.binary == first.binary);
  require(again, true);
  const CompileResult plain_again = plain->compile(source);
  CHECK(plain_again.binary_cache_hit);
  CHECK(plain_again.binary == cold.binary);
  require(plain_again, false);
}

// `check(result)` for `source` compiled with `option` by compiler/clang and, where it is
// built, compiler/process, for each SPIR-V, SPIR bitcode, PTX and host-bitcode target (a
// section each; SPIR-V must pass spirv-val); both compilers must give the same KernelInfo.
template <class Check>
void check_every_target_both_compilers(const std::string& option, const std::string& source,
                                       Check check) {
  std::vector<std::string> names = {"clang"};
  if (std::filesystem::exists(compiler_plugin_dir() / "libplexus_compiler_process.so"))
    names.push_back("process");
  for (BinaryFormat target : {BinaryFormat::spirv, BinaryFormat::spir_bitcode, BinaryFormat::ptx,
                              BinaryFormat::llvm_bitcode}) {
    DYNAMIC_SECTION(to_string(target)) {
      std::vector<CompileResult> results;
      for (const std::string& name : names) {
        INFO("compiler/" << name);
        CompileResult result = load_compiler(name, option)->compile(request(source, target));
        check(result, target);
        if (target == BinaryFormat::spirv) require_valid_spirv(result);
        results.push_back(std::move(result));
      }
      for (std::size_t i = 1; i < results.size(); ++i)
        require_same_kernels(results[0].kernels, results[i].kernels);
    }
  }
}

}  // namespace plexus::test
