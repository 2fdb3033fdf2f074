// SYCL source through compiler/clang's caches (cache/memory, and cache/disk as the
// persistent cache): a repeated build is a binary hit, and the language, the registered
// names and the include files are part of the keys.
#include <catch2/catch.hpp>

#include "cache_test_support.hpp"
#include "plexus/sycl_names.hpp"
#include "sycl_sources.hpp"

using namespace plexus;

namespace {

CompileRequest sycl_request(std::string source, BinaryFormat target) {
  return test::request(std::move(source), target, {}, SourceLanguage::sycl);
}

}  // namespace

TEST_CASE("a repeated SYCL build is a binary-cache hit with the same result") {
  auto set = test::cached_compiler_set();
  Compiler& compiler = *set->compiler();
  for (BinaryFormat target : {BinaryFormat::spir_bitcode, BinaryFormat::ptx,
                              BinaryFormat::llvm_bitcode}) {
    DYNAMIC_SECTION(to_string(target)) {
      const CompileResult cold = compiler.compile(sycl_request(test::seed_vec_add_source(), target));
      INFO(cold.log);
      REQUIRE(cold.succeeded);
      CHECK_FALSE(cold.binary_cache_hit);
      CHECK_FALSE(cold.frontend_cache_hit);
      const CompileResult warm = compiler.compile(sycl_request(test::seed_vec_add_source(), target));
      CHECK(warm.binary_cache_hit);
      CHECK(warm.binary == cold.binary);
      REQUIRE(warm.kernels.size() == 1);
      CHECK(warm.kernels[0].name == "vec_add");
    }
  }
}

TEST_CASE("the language is part of the cache keys") {
  // Valid both as C++ for OpenCL and as SYCL (which is C++ for OpenCL underneath).
  const std::string source = "__kernel void k(__global int* p) { p[0] = 1; }\n";
  auto set = test::cached_compiler_set();
  Compiler& compiler = *set->compiler();
  const CompileResult as_cpp = compiler.compile(
      test::request(source, BinaryFormat::spir_bitcode, {}, SourceLanguage::cpp_for_opencl));
  INFO(as_cpp.log);
  REQUIRE(as_cpp.succeeded);
  const CompileResult as_sycl = compiler.compile(sycl_request(source, BinaryFormat::spir_bitcode));
  INFO(as_sycl.log);
  REQUIRE(as_sycl.succeeded);
  CHECK_FALSE(as_sycl.binary_cache_hit);
  CHECK_FALSE(as_sycl.frontend_cache_hit);
}

TEST_CASE("registered names and include files are part of the SYCL cache keys") {
  auto set = test::cached_compiler_set();
  Compiler& compiler = *set->compiler();
  CompileRequest request = sycl_request(test::own_kernels_source(), BinaryFormat::llvm_bitcode);
  request.registered_names = {"ops::scale<float>"};
  const CompileResult floats = compiler.compile(request);
  INFO(floats.log);
  REQUIRE(floats.succeeded);
  request.registered_names = {"ops::scale<int>"};
  const CompileResult ints = compiler.compile(request);
  INFO(ints.log);
  REQUIRE(ints.succeeded);
  CHECK_FALSE(ints.binary_cache_hit);
  CHECK(test::find_kernel(ints, registered_kernel_symbol("ops::scale<int>")) != nullptr);
  CHECK(test::find_kernel(ints, registered_kernel_symbol("ops::scale<float>")) == nullptr);

  CompileRequest with_include = sycl_request(
      "#include <sycl/sycl.hpp>\n#include \"value.hpp\"\nextern \"C\" "
      "SYCL_EXT_ONEAPI_FUNCTION_PROPERTY((sycl::ext::oneapi::experimental::single_task_kernel))"
      " void k(int* p) { p[0] = VALUE; }\n",
      BinaryFormat::llvm_bitcode);
  with_include.includes = {{"value.hpp", "#define VALUE 1\n"}};
  REQUIRE(compiler.compile(with_include).succeeded);
  CHECK(compiler.compile(with_include).binary_cache_hit);
  with_include.includes = {{"value.hpp", "#define VALUE 2\n"}};
  const CompileResult changed = compiler.compile(with_include);
  CHECK(changed.succeeded);
  CHECK_FALSE(changed.binary_cache_hit);
  CHECK_FALSE(changed.frontend_cache_hit);
}

TEST_CASE("SYCL builds hit the persistent cache (cache/disk) in a new component set") {
  test::TempDir dir;
  static const PluginRegistry registry({{test::build_plugin_dir(), "build tree"}});
  const auto compiler_set = [&] {
    return std::make_unique<ComponentSet>(
        Config::from_string("[cache]\nuse = \"disk\"\n[cache.disk]\nroot = \"" +
                                dir.path().string() + "\"\n[compiler]\nuse = \"clang\"\n",
                            "sycl_disk_cache_test.toml"),
        registry);
  };
  const CompileRequest request = sycl_request(test::seed_vec_add_source(), BinaryFormat::ptx);
  CompileResult cold;
  {
    auto first = compiler_set();  // as one process
    cold = first->compiler()->compile(request);
    INFO(cold.log);
    REQUIRE(cold.succeeded);
    CHECK_FALSE(cold.binary_cache_hit);
  }
  auto second = compiler_set();  // as the next one, over the same directory
  const CompileResult warm = second->compiler()->compile(request);
  CHECK(warm.binary_cache_hit);
  CHECK(warm.binary == cold.binary);
}
