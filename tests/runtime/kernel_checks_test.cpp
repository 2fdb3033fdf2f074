// Checked kernels (issue 15 item 5) on the host backend and PoCL: the test set of
// kernel_checks_cases.hpp reports every violation (100%), under -O2 and -cl-opt-disable;
// PLEXUS_KERNEL_CHECKS=1 turns it on; and, without checks, a host kernel that faults is
// named on stderr before the process ends.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "kernel_checks_cases.hpp"
#include "plexus/isolated_call.hpp"
#include "runtime_test_support.hpp"

using plexus::test::make_runtime;

namespace {

const char* const checked = "[compiler.clang]\nchecks = \"bounds\"\n";

void run_set_on(const std::string& backend, const std::string& scheduler) {
  // Only `backend` is loaded: every device is one of it.
  auto rt = make_runtime({scheduler, "exact"}, "\"" + backend + "\"", checked);
  const std::vector<plexus::Device*> devices = rt->devices();
  if (devices.empty()) {
    WARN("skipped: no " << backend << " device");
    return;
  }
  for (const char* options : {"", "-cl-opt-disable"}) {
    DYNAMIC_SECTION("options '" << options << "'") {
      const auto outcome = plexus::test::checks::run_checked_cases(*rt, *devices.front(), options);
      INFO(backend << ": " << outcome.caught << " of " << outcome.cases << " caught");
      CHECK(outcome.cases == 10);
      CHECK(outcome.caught == outcome.cases);
    }
  }
}

}  // namespace

TEST_CASE("checked kernels on the host device report every out-of-bounds access") {
  for (const char* scheduler : {"inorder", "dag"})
    DYNAMIC_SECTION("scheduler/" << scheduler) { run_set_on("host", scheduler); }
}

TEST_CASE("checked kernels on PoCL report every out-of-bounds access") {
  for (const char* scheduler : {"inorder", "dag"})
    DYNAMIC_SECTION("scheduler/" << scheduler) { run_set_on("opencl", scheduler); }
}

TEST_CASE("PLEXUS_KERNEL_CHECKS=1 checks kernels, and unchecked builds have no hidden argument") {
  {
    auto rt = make_runtime({"inorder", "exact"}, "\"host\"");
    plexus::KernelBundle bundle = rt->build(plexus::test::checks::kernels);
    CHECK_FALSE(bundle.kernel("shift_copy").info().bounds_checked);
    CHECK(bundle.kernel("shift_copy").info().args.size() == 3);
  }
  ::setenv("PLEXUS_KERNEL_CHECKS", "1", 1);
  auto rt = make_runtime({"inorder", "exact"}, "\"host\"");
  ::unsetenv("PLEXUS_KERNEL_CHECKS");
  plexus::KernelBundle bundle = rt->build(plexus::test::checks::kernels);
  const plexus::KernelInfo& info = bundle.kernel("shift_copy").info();
  CHECK(info.bounds_checked);
  REQUIRE(info.args.size() == 4);
  CHECK(info.args.back().name == "__plexus_checks");
  CHECK(info.user_arg_count() == 3);

  ::setenv("PLEXUS_KERNEL_CHECKS", "yes", 1);
  plexus::test::require_error([] { make_runtime({"inorder", "exact"}, "\"host\""); },
                              plexus::error_category::config, "PLEXUS_KERNEL_CHECKS='yes'");
  ::unsetenv("PLEXUS_KERNEL_CHECKS");
}

TEST_CASE("without checks, a host kernel that faults is named before the process ends") {
  // In a child process: the fault ends it, as it would end an application.
  const plexus::IsolatedResult result = plexus::run_isolated([](std::string&, std::string&) {
    plexus::Runtime rt(plexus::test::runtime_config({"inorder", "exact"}, "\"host\""));
    plexus::KernelBundle bundle = rt.build(R"(
      __kernel void wild_store(__global float* out, ulong reach) {
        out[get_global_id(0) + reach] = 1.0f;
      })");
    plexus::Buffer<float> out(plexus::Range{16});
    rt.queue().submit([&](plexus::Handler& h) {
      // 2^45 floats past the buffer: 2^47 bytes, beyond any user-space address.
      h.parallel_for(bundle.kernel("wild_store"), plexus::Range{16},
                     out.access(h, plexus::discard_write), std::uint64_t{1} << 45);
    }).wait();
    return true;
  });
  INFO(result.failure);
  CHECK_FALSE(result.succeeded);
  CHECK_THAT(result.failure, Catch::Contains("signal 11"));
  CHECK_THAT(result.failure, Catch::Contains("plexus: kernel 'wild_store' faulted on device '"));
  CHECK_THAT(result.failure, Catch::Contains("SIGSEGV"));
}
