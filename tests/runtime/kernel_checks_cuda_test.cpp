// Checked kernels (issue 15 item 5) on the CUDA backend: the same test set as on the host
// and PoCL (kernel_checks_cases.hpp), compiled to PTX with the checks; every violation is
// reported. Without a CUDA device the case is skipped with the reason (WARN).
#include <catch2/catch.hpp>

#include "backend_loader.hpp"
#include "kernel_checks_cases.hpp"

TEST_CASE("checked kernels on CUDA report every out-of-bounds access") {
  plexus::Runtime rt(plexus::Config::from_string(
      "[log]\nlevel = \"warn\"\n[backends]\nuse = [\"cuda\"]\nskip_missing = true\n"
      "[scheduler]\nuse = \"dag\"\n[memory]\nuse = \"exact\"\n"
      "[compiler]\nuse = \"clang\"\n[compiler.clang]\nchecks = \"bounds\"\n"
      "[cache]\nuse = \"memory\"\n",
      "kernel-checks-cuda.toml"));
  if (rt.devices().empty() || rt.devices().front()->native_backend() != "cuda") {
    WARN("skipped: no CUDA device: " << plexus::test::load_backend("cuda")->status().reason);
    return;
  }
  for (const char* options : {"", "-cl-opt-disable"}) {
    DYNAMIC_SECTION("options '" << options << "'") {
      const auto outcome =
          plexus::test::checks::run_checked_cases(rt, *rt.devices().front(), options);
      INFO(outcome.caught << " of " << outcome.cases << " caught");
      CHECK(outcome.cases == 10);
      CHECK(outcome.caught == outcome.cases);
    }
  }
}
