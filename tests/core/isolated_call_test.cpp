// plexus::run_isolated: a step that aborts, segfaults, calls exit() or hangs ends as a
// failure with its message, and the calling process goes on; a step that works returns
// its bytes; the caller's atexit handlers do not run in the child.
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "plexus/isolated_call.hpp"

using namespace plexus;

namespace {

bool atexit_ran_in_child = false;

}  // namespace

TEST_CASE("run_isolated: a step that works returns its bytes, large ones too", "[core]") {
  const IsolatedResult small = run_isolated([](std::string& output, std::string&) {
    output = "spirv bytes";
    return true;
  });
  CHECK(small.succeeded);
  CHECK(small.output == "spirv bytes");
  const IsolatedResult large = run_isolated([](std::string& output, std::string&) {
    output.assign(5 * 1024 * 1024, 'x');
    std::fprintf(stderr, "noise on stderr\n");
    return true;
  });
  CHECK(large.succeeded);
  CHECK(large.output.size() == 5 * 1024 * 1024);
}

TEST_CASE("run_isolated: a failure the step reports comes back with its message", "[core]") {
  const IsolatedResult result = run_isolated([](std::string&, std::string& message) {
    message = "not valid LLVM bitcode: unknown record";
    return false;
  });
  CHECK_FALSE(result.succeeded);
  CHECK(result.failure == "not valid LLVM bitcode: unknown record");
}

TEST_CASE("run_isolated: an assertion, a segfault and exit() end only the child", "[core]") {
  const IsolatedResult aborted = run_isolated([](std::string&, std::string&) {
    std::fprintf(stderr, "Assertion `isAllowedToUseVersion' failed.\n");
    std::abort();
    return true;
  });
  CHECK_FALSE(aborted.succeeded);
  CHECK_THAT(aborted.failure, Catch::StartsWith("it was ended by signal 6"));
  CHECK_THAT(aborted.failure, Catch::Contains("isAllowedToUseVersion"));

  const IsolatedResult crashed = run_isolated([](std::string&, std::string&) {
    std::raise(SIGSEGV);
    return true;
  });
  CHECK_THAT(crashed.failure, Catch::StartsWith("it was ended by signal 11"));

  // exit() runs none of the caller's atexit handlers in the child (the handler would write
  // "atexit ran" into the captured output).
  std::atexit([] {
    if (atexit_ran_in_child) std::fprintf(stderr, "atexit ran\n");
  });
  const IsolatedResult exited = run_isolated([](std::string&, std::string&) {
    atexit_ran_in_child = true;
    std::printf("InvalidInstruction: Can't translate llvm instruction");
    std::exit(15);
    return true;
  });
  CHECK_FALSE(exited.succeeded);
  CHECK_THAT(exited.failure, Catch::StartsWith("it called exit(15)"));
  CHECK_THAT(exited.failure, Catch::Contains("Can't translate llvm instruction"));
  CHECK_THAT(exited.failure, !Catch::Contains("atexit ran"));

  const IsolatedResult thrown = run_isolated([](std::string&, std::string&) -> bool {
    throw std::runtime_error("thrown in the step");
  });
  CHECK(thrown.failure == "thrown in the step");
}

TEST_CASE("run_isolated: a step past its timeout is stopped", "[core]") {
  const IsolatedResult hung = run_isolated(
      [](std::string&, std::string&) {
        for (;;) ::pause();
        return true;
      },
      std::chrono::seconds(1));
  CHECK_FALSE(hung.succeeded);
  CHECK_THAT(hung.failure, Catch::Contains("did not finish within 1 s"));
}
