// Helpers for the compiler tests: load a compiler plugin through the core's loader,
// build requests, validate SPIR-V, find diagnostics. Not thread-safe except compile().
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "plexus/cache_store.hpp"
#include "plexus/compiler.hpp"
#include "plexus/component_lookup.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_context.hpp"
#include "plexus/plugin_library.hpp"
#include "plexus/plugin_registry.hpp"
#include "test_support.hpp"

namespace plexus::test {

inline std::filesystem::path compiler_plugin_dir() {
  const char* dir = std::getenv("PLEXUS_BUILD_PLUGIN_DIR");
  return dir && *dir ? std::filesystem::path(dir)
                     : std::filesystem::path(PLEXUS_TEST_DEFAULT_PLUGIN_DIR);
}

// A compiler sees no other component, except the cache store when one is given.
class CacheOnlyLookup final : public ComponentLookup {
 public:
  explicit CacheOnlyLookup(CacheStore* store = nullptr) : store_(store) {}
  std::size_t backend_count() const override { return 0; }
  Backend& backend(std::size_t) const override {
    throw error(error_category::internal, "no backends in this test");
  }
  CacheStore* cache() const override { return store_; }
  Compiler* compiler() const override { return nullptr; }
  FusionEngine* fusion() const override { return nullptr; }
  MemoryModel* memory() const override { return nullptr; }
  Scheduler* scheduler() const override { return nullptr; }

 private:
  CacheStore* store_;
};

// A fresh compiler `name` loaded through the core's loader, with `options` (TOML lines of
// its [compiler.<name>] table) and `store` as its cache store (nullptr: none).
inline std::shared_ptr<Compiler> load_compiler(const std::string& name,
                                               const std::string& options = "",
                                               CacheStore* store = nullptr) {
  const PluginListing listing =
      PluginRegistry::inspect(compiler_plugin_dir() / ("libplexus_compiler_" + name + ".so"));
  REQUIRE(listing.kind == ComponentKind::compiler);
  REQUIRE(listing.name == name);
  const auto library = PluginLibrary::load(listing);
  const Config config = Config::from_string(
      "[compiler]\nuse = \"" + name + "\"\n[compiler." + name + "]\n" + options + "\n",
      "compiler_test.toml");
  CacheOnlyLookup lookup(store);
  PluginContext context{config.options_for(ComponentKind::compiler, name), lookup};
  const std::shared_ptr<Component> component = library->create(context);
  auto* compiler = dynamic_cast<Compiler*>(component.get());
  REQUIRE(compiler != nullptr);
  return std::shared_ptr<Compiler>(component, compiler);
}

inline std::shared_ptr<Compiler> load_clang_compiler(const std::string& options = "") {
  return load_compiler("clang", options);
}

// One compiler for the whole test program (loading it is not what is tested).
inline Compiler& clang_compiler() {
  static const std::shared_ptr<Compiler> compiler = load_clang_compiler();
  return *compiler;
}

// compiler/clang, and compiler/process where the test is built with it
// (PLEXUS_TEST_HAVE_PROCESS_COMPILER): for behaviour both must share.
inline std::vector<std::shared_ptr<Compiler>> compilers_under_test() {
  std::vector<std::shared_ptr<Compiler>> all = {load_compiler("clang")};
#ifdef PLEXUS_TEST_HAVE_PROCESS_COMPILER
  all.push_back(load_compiler("process"));
#endif
  return all;
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

// A kernel calling a function that nothing defines (a build error for every native target).
inline const char* const undefined_function_source = R"(
int plexus_test_undefined(int);
__kernel void k(__global int* g) { g[0] = plexus_test_undefined(g[1]); }
)";

// A kernel calling builtins of every OpenCL C 1.2 family the host device library has
// (conversions, vector loads, relational, integer, math with pointers, geometric, shuffle,
// async copies) and printf (the C library's): everything resolves for the host.
inline const char* const builtin_families_source = R"(
__kernel void k(__global float* f, __global int* g, __local float* scratch) {
  size_t i = get_global_id(0);
  int4 c = convert_int4_sat_rte(vload4(i, f));
  float3 v = vload3(i, f);
  int e;
  float m = frexp(f[i], &e) + sinpi(f[i]) + lgamma(f[i]) + dot(v, cross(v, v)) +
            length(normalize(v)) + vload_half(i, (__global half*)g);
  vstore_half_rtz(m, i, (__global half*)g);
  g[i] = popcount(c.x) + rotate(c.y, 3) + add_sat(c.z, e) + any(c) + select(1, 2, c.w) +
         shuffle(c, (uint4)(3, 2, 1, 0)).x + isnan(m) + (int)convert_float_rtp((long)g[i]);
  event_t done = async_work_group_copy(scratch, f, 16, 0);
  wait_group_events(1, &done);
  if (i == 0) printf("%f\n", scratch[0]);
}
)";

// Host bitcode from `compiler`: a function nothing defines is a build error naming it; the
// OpenCL C 1.2 builtins all resolve.
inline void check_host_functions_resolve(Compiler& compiler) {
  const CompileResult missing =
      compiler.compile(request(undefined_function_source, BinaryFormat::llvm_bitcode));
  INFO(missing.log);
  CHECK_FALSE(missing.succeeded);
  CHECK(missing.log.find("plexus_test_undefined") != std::string::npos);
  CHECK(missing.log.find("host device library") != std::string::npos);
  const CompileResult builtins =
      compiler.compile(request(builtin_families_source, BinaryFormat::llvm_bitcode));
  INFO(builtins.log);
  CHECK(builtins.succeeded);
}

// spirv-val --target-env opencl2.0 on the module: its exit status (output in `output`).
inline int spirv_val_status(const std::vector<std::byte>& spirv, std::string& output) {
  TempDir dir;
  const fs::path file = dir.write("module.spv", as_text(spirv));
  const std::string command =
      std::string(PLEXUS_TEST_SPIRV_VAL) + " --target-env opencl2.0 " + file.string() + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The result is a SPIR-V module that spirv-val accepts.
inline void require_valid_spirv(const CompileResult& result) {
  INFO(result.log);
  REQUIRE(result.succeeded);
  REQUIRE(result.format == BinaryFormat::spirv);
  REQUIRE(result.binary.size() > 20);
  if (std::string(PLEXUS_TEST_SPIRV_VAL).empty()) {
    WARN("spirv-val was not found when this test was configured: SPIR-V not validated");
    return;
  }
  std::string output;
  const int status = spirv_val_status(result.binary, output);
  INFO("spirv-val: " << output);
  CHECK(status == 0);
}

inline const Diagnostic* first_error(const CompileResult& result) {
  for (const Diagnostic& diagnostic : result.diagnostics)
    if (diagnostic.severity == DiagnosticSeverity::error) return &diagnostic;
  return nullptr;
}

}  // namespace plexus::test
