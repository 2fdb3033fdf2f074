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
  check_own_cache_entry(checks_option, request(vector_add_source, BinaryFormat::llvm_bitcode),
                        [](const CompileResult& result, bool checked) {
    if (checked) {
      require_checked(result, "vadd", 3);
    } else {
      REQUIRE(result.succeeded);
      CHECK_FALSE(find_kernel(result, "vadd")->bounds_checked);
    }
  });
}

TEST_CASE("checked kernels compile for every target, with the same KernelInfo from both compilers") {
  check_every_target_both_compilers(checks_option, checks::kernels,
                                    [](const CompileResult& result, BinaryFormat target) {
    require_checked(result, "shift_copy", 3);
    require_checked(result, "local_neighbour", 4);
    require_checked(result, "local_variable", 3);
    if (target == BinaryFormat::ptx)  // the record is the last .param of the entry
      CHECK_THAT(as_text(result.binary), Catch::Contains("shift_copy_param_3"));
  });
}
