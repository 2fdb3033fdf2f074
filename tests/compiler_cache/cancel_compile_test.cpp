// Cancellable kernels at the compiler (issue 22 item 5): cancel = "work_group" is another
// binary on SPIR targets (its own level-2 key; KernelInfo::cancellable survives a
// binary-cache hit), SPIR-V that spirv-val accepts, with compiler/process giving
// compiler/clang's KernelInfo; other targets and builds without the option have no cancel
// cell; a SPIR-V input made cancellable already is not given a second cell; a kernel that
// another kernel calls stays as it is, with a warning; PLEXUS_KERNEL_CANCEL overrides it.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cache_test_support.hpp"
#include "kernel_cancel_cases.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

const char* const cancel_option = "cancel = \"work_group\"";

const char* const kernels = cancel::kernels;

bool has_cell(const CompileResult& result) {
  return as_text(result.binary).find("__plexus_cancel") != std::string::npos;
}

void require_cancellable(const CompileResult& result, bool cancellable) {
  INFO(result.log);
  REQUIRE(result.succeeded);
  for (const char* name : {"scale", "group_sum", "table"}) {
    const KernelInfo* info = find_kernel(result, name);
    REQUIRE(info != nullptr);
    CHECK(info->cancellable == cancellable);
    CHECK(info->user_arg_count() == info->args.size());  // the cell is not listed
  }
  CHECK(find_kernel(result, "scale")->args.size() == 3);
  CHECK(find_kernel(result, "group_sum")->args.size() == 3);
  CHECK(has_cell(result) == cancellable);
}

}  // namespace

TEST_CASE("cancellable kernels: their own binary in the cache, the flag kept through a hit") {
  // Off by default: no hidden parameter.
  check_own_cache_entry(cancel_option, request(kernels, BinaryFormat::spir_bitcode),
                        require_cancellable);
}

TEST_CASE("cancellable kernels on SPIR targets only, the same from both compilers") {
  check_every_target_both_compilers(cancel_option, kernels,
                                    [](const CompileResult& result, BinaryFormat target) {
    require_cancellable(result,
                        target == BinaryFormat::spirv || target == BinaryFormat::spir_bitcode);
  });
}

TEST_CASE("a cancellable SPIR-V input keeps its one cancel cell") {
  const auto compiler = load_compiler("clang", cancel_option);
  const CompileResult spirv = compiler->compile(request(kernels, BinaryFormat::spirv));
  require_cancellable(spirv, true);
  CompileRequest again;
  again.language = SourceLanguage::spirv;
  again.source.assign(reinterpret_cast<const char*>(spirv.binary.data()), spirv.binary.size());
  again.target = BinaryFormat::spirv;
  const CompileResult twice = compiler->compile(again);
  require_cancellable(twice, true);  // read back as cancellable: no second cell
  require_valid_spirv(twice);
  for (const KernelInfo& kernel : spirv.kernels)  // the same arguments, the cell not listed
    CHECK(find_kernel(twice, kernel.name)->args.size() == kernel.args.size());
  // Without the option too: the input's kernels are cancellable.
  require_cancellable(load_compiler("clang", "")->compile(again), true);
}

TEST_CASE("a kernel another kernel calls takes no cancel cell, with a warning") {
  const char* const calling = R"(
    __kernel void inner(__global int* out) { out[get_global_id(0)] = 1; }
    __kernel void outer(__global int* out) { inner(out); out[0] += 1; })";
  // -cl-opt-disable: the call stays (optimised, inner is inlined into outer and not called).
  const CompileResult result = load_compiler("clang", cancel_option)
                                   ->compile(request(calling, BinaryFormat::spir_bitcode,
                                                     {"-cl-opt-disable"}));
  INFO(result.log);
  REQUIRE(result.succeeded);
  CHECK_FALSE(find_kernel(result, "inner")->cancellable);
  CHECK(find_kernel(result, "outer")->cancellable);
  CHECK_THAT(result.log, Catch::Contains("kernel 'inner' is called by another function"));
}

TEST_CASE("PLEXUS_KERNEL_CANCEL turns cancellable kernels on and off") {
  ::setenv("PLEXUS_KERNEL_CANCEL", "1", 1);
  const auto on = load_compiler("clang", "");
  ::setenv("PLEXUS_KERNEL_CANCEL", "0", 1);
  const auto off = load_compiler("clang", cancel_option);
  ::setenv("PLEXUS_KERNEL_CANCEL", "sometimes", 1);
  CHECK_THROWS_WITH(load_compiler("clang", ""), Catch::Contains("PLEXUS_KERNEL_CANCEL='sometimes'"));
  ::unsetenv("PLEXUS_KERNEL_CANCEL");
  CHECK_THROWS_WITH(load_compiler("clang", "cancel = \"always\""), Catch::Contains("cancel"));
  require_cancellable(on->compile(request(kernels, BinaryFormat::spir_bitcode)), true);
  require_cancellable(off->compile(request(kernels, BinaryFormat::spir_bitcode)), false);
}
