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

}  // namespace plexus::test
