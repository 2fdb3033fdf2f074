// Checked kernels at the compiler (issue 15 item 5): checks = "bounds" is another binary
// (its own level-2 key beside the unchecked one, the frontend level shared), the hidden
// argument and KernelInfo::bounds_checked survive a binary-cache hit, and every target
// compiles checked kernels (SPIR-V that spirv-val accepts, SPIR bitcode, PTX, host bitcode),
// with compiler/process giving compiler/clang's KernelInfo.
#include <catch2/catch.hpp>

#include "cache_test_support.hpp"
#include "kernel_checks_cases.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const checks_option = "checks = \"bounds\"";

void require_checked(const CompileResult& result, const std::string& kernel, std::size_t args) {
  INFO(result.log);
  REQUIRE(result.succeeded);
  const KernelInfo* info = find_kernel(result, kernel);
  REQUIRE(info != nullptr);
  CHECK(info->bounds_checked);
  REQUIRE(info->args.size() == args + 1);
  CHECK(info->args.back().name == "__plexus_checks");
  CHECK(info->args.back().kind == KernelArgKind::global_pointer);
  CHECK(info->user_arg_count() == args);
}

}  // namespace

TEST_CASE("checked kernels: their own binary in the cache, the flag kept through a hit") {
  const auto components = cached_compiler_set();
  CacheStore* store = components->cache();
  REQUIRE(store != nullptr);
  const auto plain = load_compiler("clang", "", store);
  const auto checked = load_compiler("clang", checks_option, store);
  const CompileRequest vadd = request(vector_add_source, BinaryFormat::llvm_bitcode);

  const CompileResult cold = plain->compile(vadd);
  REQUIRE(cold.succeeded);
  CHECK_FALSE(find_kernel(cold, "vadd")->bounds_checked);
  const CompileResult first = checked->compile(vadd);
  CHECK_FALSE(first.binary_cache_hit);  // not the unchecked binary
  require_checked(first, "vadd", 3);
  CHECK(first.binary != cold.binary);

  const CompileResult again = checked->compile(vadd);
  CHECK(again.binary_cache_hit);
  CHECK(again.binary == first.binary);
  require_checked(again, "vadd", 3);
  const CompileResult plain_again = plain->compile(vadd);
  CHECK(plain_again.binary_cache_hit);
  CHECK(plain_again.binary == cold.binary);
  CHECK_FALSE(find_kernel(plain_again, "vadd")->bounds_checked);
}

TEST_CASE("checked kernels compile for every target, with the same KernelInfo from both compilers") {
  std::vector<std::string> names = {"clang"};
  if (std::filesystem::exists(compiler_plugin_dir() / "libplexus_compiler_process.so"))
    names.push_back("process");
  for (BinaryFormat target : {BinaryFormat::spirv, BinaryFormat::spir_bitcode, BinaryFormat::ptx,
                              BinaryFormat::llvm_bitcode}) {
    DYNAMIC_SECTION(to_string(target)) {
      std::vector<CompileResult> results;
      for (const std::string& name : names) {
        INFO("compiler/" << name);
        CompileResult result =
            load_compiler(name, checks_option)->compile(request(checks::kernels, target));
        require_checked(result, "shift_copy", 3);
        require_checked(result, "local_neighbour", 4);
        require_checked(result, "local_variable", 3);
        if (target == BinaryFormat::spirv) require_valid_spirv(result);
        if (target == BinaryFormat::ptx)  // the record is the last .param of the entry
          CHECK_THAT(as_text(result.binary), Catch::Contains("shift_copy_param_3"));
        results.push_back(std::move(result));
      }
      for (std::size_t i = 1; i < results.size(); ++i)
        require_same_kernels(results[0].kernels, results[i].kernels);
    }
  }
}
