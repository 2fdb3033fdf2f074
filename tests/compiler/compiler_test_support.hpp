// Helpers for the compiler tests: load the clang compiler plugin through the core's
// loader, build requests, write temporary files. Not thread-safe except compile().
#pragma once

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "plexus/compiler.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"

namespace plexus::test {

inline std::filesystem::path compiler_plugin_dir() {
  const char* dir = std::getenv("PLEXUS_BUILD_PLUGIN_DIR");
  return dir && *dir ? std::filesystem::path(dir)
                     : std::filesystem::path(PLEXUS_TEST_DEFAULT_PLUGIN_DIR);
}

// A compiler sees no other component.
class NoComponents final : public ComponentLookup {
 public:
  std::size_t backend_count() const override { return 0; }
  Backend& backend(std::size_t) const override {
    throw error(error_category::internal, "no backends in this test");
  }
  CacheStore* cache() const override { return nullptr; }
  Compiler* compiler() const override { return nullptr; }
  FusionEngine* fusion() const override { return nullptr; }
  MemoryModel* memory() const override { return nullptr; }
  Scheduler* scheduler() const override { return nullptr; }
};

// A fresh clang compiler with `options` (TOML lines of its [compiler.clang] table).
inline std::shared_ptr<Compiler> load_clang_compiler(const std::string& options = "") {
  const PluginListing listing =
      PluginRegistry::inspect(compiler_plugin_dir() / "libplexus_compiler_clang.so");
  REQUIRE(listing.kind == ComponentKind::compiler);
  REQUIRE(listing.name == "clang");
  const auto library = PluginLibrary::load(listing);
  const Config config = Config::from_string(
      "[compiler]\nuse = \"clang\"\n[compiler.clang]\n" + options + "\n", "compiler_test.toml");
  NoComponents none;
  PluginContext context{config.options_for(ComponentKind::compiler, "clang"), none};
  const std::shared_ptr<Component> component = library->create(context);
  auto* compiler = dynamic_cast<Compiler*>(component.get());
  REQUIRE(compiler != nullptr);
  return std::shared_ptr<Compiler>(component, compiler);
}

// One compiler for the whole test program (loading it is not what is tested).
inline Compiler& clang_compiler() {
  static const std::shared_ptr<Compiler> compiler = load_clang_compiler();
  return *compiler;
}

inline CompileRequest request(std::string source, BinaryFormat target,
                              std::vector<std::string> options = {},
                              SourceLanguage language = SourceLanguage::opencl_c) {
  CompileRequest r;
  r.language = language;
  r.source = std::move(source);
  r.target = target;
  r.options = std::move(options);
  return r;
}

inline std::string as_text(const std::vector<std::byte>& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

inline const KernelInfo* find_kernel(const CompileResult& result, const std::string& name) {
  for (const KernelInfo& kernel : result.kernels)
    if (kernel.name == name) return &kernel;
  return nullptr;
}

inline const char* const vector_add_source = R"(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

}  // namespace plexus::test
