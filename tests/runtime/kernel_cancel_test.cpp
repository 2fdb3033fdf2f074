// Cancellable kernels on PoCL (issue 22 item 5): PoCL cannot stop a kernel that runs, so
// kernels built with cancel = "work_group" skip the work-groups not started when the
// task is cancelled (plexus/kernel_cancel.hpp). With the option on:
// - an endless kernel: wait_for times out, cancel stops it at a work-group boundary, the
//   event fails with plexus::error(cancelled) naming the kernel (inorder and dag);
// - a launch whose every work-group had started when the cancel came runs to its end and
//   is not reported cancelled;
// - kernels (one with barriers and __local memory) give the same results as without it;
// - the runtime destructor's deadline cancels an endless kernel, and returns;
// - cancellable kernels are not fused (complete_fusion says why);
// and without it, kernels have no cancel cell.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "kernel_cancel_cases.hpp"
#include "runtime_test_support.hpp"

using namespace std::chrono_literals;
using plexus::error_category;
using plexus::test::require_error;

namespace {

const char* const cancellable = "[compiler.clang]\ncancel = \"work_group\"\n";

std::unique_ptr<plexus::Runtime> pocl_runtime(const std::string& scheduler, bool cancel,
                                              plexus::RuntimeOptions options = {}) {
  return std::make_unique<plexus::Runtime>(
      plexus::test::runtime_config({scheduler, "paged"}, "\"opencl\"",
                                   std::string(cancel ? cancellable : "") +
                                       "[fusion]\nuse = \"llvm\"\n"
                                       // PoCL only (a GPU's OpenCL may load PTX: no cell)
                                       "[backends.opencl]\nplatform = \"Portable Computing\"\n"),
      std::move(options));
}

// Every work-item says it started, then waits until the host releases it: the work-groups
// running when the test cancels stay running until it says so, and the others have not
// started (PoCL's threads run one group each at a time).
const char* const held = R"(
__kernel void held(__global volatile int* started, __global volatile int* release,
                   __global int* out) {
  started[0] = 1;
  while (release[0] == 0) {}
  out[get_global_id(0)] = (int)get_global_id(0) + 1;
}
)";

// Each work-group runs a few milliseconds; 2^16 of them, minutes in all.
const char* const long_running = R"(
__kernel void long_running(__global int* out, int rounds) {
  int x = (int)get_global_id(0);
  for (int i = 0; i < rounds; ++i) x = x * 1103515245 + 12345;
  out[get_global_id(0)] = x;
}
)";

bool has_pocl(plexus::Runtime& rt) {
  if (!rt.devices().empty()) return true;
  WARN("skipped: no OpenCL device (PoCL)");
  return false;
}

// Waits (at most 60 s) until the kernel has written `*flag`.
bool wait_started(int* flag) {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::atomic_ref<int>(*flag).load() == 0) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

void release(int* flag) { std::atomic_ref<int>(*flag).store(1); }

}  // namespace

TEST_CASE("an endless PoCL kernel: wait_for times out, cancel stops it at a work-group boundary") {
  for (const char* scheduler : {"inorder", "dag"}) {
    DYNAMIC_SECTION("scheduler/" << scheduler) {
      auto rt = pocl_runtime(scheduler, true);
      if (!has_pocl(*rt)) return;
      plexus::Queue q = rt->queue();
      auto kernel = rt->build(held).kernel("held");
      REQUIRE(kernel.info().cancellable);
      int* flags = plexus::malloc_host<int>(2, q);
      flags[0] = flags[1] = 0;
      const std::size_t n = 1 << 16;
      plexus::Buffer<int> out(plexus::Range{n});
      const auto start = std::chrono::steady_clock::now();
      auto launch = q.submit([&](plexus::Handler& h) {
        h.parallel_for(kernel, plexus::nd_range(plexus::Range{n}, plexus::Range{16}), flags,
                       flags + 1, out.access(h, plexus::discard_write));
      });
      REQUIRE(wait_started(flags));
      CHECK_FALSE(launch.wait_for(100ms));
      CHECK_FALSE(q.wait_for(10ms));
      launch.cancel();
      release(flags + 1);  // the groups running now end; the 4000 others must not start
      require_error([&] { launch.wait(); }, error_category::cancelled,
                    "launch of 'held' on OpenCL device");
      require_error([&] { launch.wait(); }, error_category::cancelled,
                    "work-groups not started by then did not run");
      CHECK(std::chrono::steady_clock::now() - start < 60s);
      // The device goes on: a later launch on another queue runs (on this in-order queue,
      // the next task would fail with the cancelled one's error, as after any failure).
      plexus::Queue next = rt->queue();
      int* more_flags = plexus::malloc_host<int>(2, q);
      more_flags[0] = 0;
      more_flags[1] = 1;
      plexus::Buffer<int> small(plexus::Range{16});
      auto again = next.submit([&](plexus::Handler& h) {
        h.parallel_for(kernel, plexus::nd_range(plexus::Range{16}, plexus::Range{16}), more_flags,
                       more_flags + 1, small.access(h, plexus::discard_write));
      });
      again.wait();
      CHECK(small.host_access()[15] == 16);
      plexus::free(more_flags, q);
      plexus::free(flags, q);
    }
  }
}

TEST_CASE("a PoCL launch whose work-groups had all started when cancelled is not reported "
          "cancelled") {
  auto rt = pocl_runtime("dag", true);
  if (!has_pocl(*rt)) return;
  plexus::Queue q = rt->queue();
  auto kernel = rt->build(held).kernel("held");
  int* flags = plexus::malloc_host<int>(2, q);
  flags[0] = flags[1] = 0;
  const std::size_t n = 64;
  plexus::Buffer<int> out(plexus::Range{n});
  auto launch = q.submit([&](plexus::Handler& h) {  // one work-group
    h.parallel_for(kernel, plexus::nd_range(plexus::Range{n}, plexus::Range{n}), flags, flags + 1,
                   out.access(h, plexus::discard_write));
  });
  REQUIRE(wait_started(flags));
  launch.cancel();  // too late: its one group runs
  release(flags + 1);
  launch.wait();  // no error
  CHECK(launch.status() == plexus::TaskStatus::complete);
  auto view = out.host_access();
  for (std::size_t i = 0; i < n; ++i) CHECK(view[i] == static_cast<int>(i) + 1);
  launch.cancel();  // once done: nothing changes
  launch.wait();
  plexus::free(flags, q);
}

TEST_CASE("cancellable PoCL kernels give the results of plain ones") {
  const std::size_t n = 4096;
  std::vector<float> input(n);
  std::vector<int> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    input[i] = 0.25f * static_cast<float>(i) - 17.0f;
    values[i] = static_cast<int>((i * 2654435761u) % 1000) - 500;
  }
  auto run = [&](bool cancel, std::vector<float>& scaled, std::vector<int>& sums) {
    auto rt = pocl_runtime("dag", cancel);
    if (!has_pocl(*rt)) return false;
    plexus::Queue q = rt->queue();
    plexus::KernelBundle bundle = rt->build(plexus::test::cancel::kernels);
    CHECK(bundle.kernel("scale").info().cancellable == cancel);
    CHECK(bundle.kernel("group_sum").info().cancellable == cancel);
    CHECK(bundle.kernel("group_sum").info().args.size() == 3);  // the cell is not listed
    plexus::Buffer<float> in(input.data(), plexus::Range{n}), out(plexus::Range{n});
    plexus::Buffer<int> items(values.data(), plexus::Range{n}), totals(plexus::Range{n / 64});
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("scale"), plexus::Range{n}, in.access(h, plexus::read),
                     out.access(h, plexus::discard_write), 1.5f);
    });
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("group_sum"), plexus::nd_range(plexus::Range{n}, plexus::Range{64}),
                     items.access(h, plexus::read), totals.access(h, plexus::discard_write),
                     plexus::local<int>(64));
    });
    q.wait();
    auto out_view = out.host_access();
    scaled.assign(out_view.data(), out_view.data() + n);
    auto totals_view = totals.host_access();
    sums.assign(totals_view.data(), totals_view.data() + n / 64);
    return true;
  };
  std::vector<float> plain_scaled, cancellable_scaled;
  std::vector<int> plain_sums, cancellable_sums;
  if (!run(false, plain_scaled, plain_sums)) return;
  REQUIRE(run(true, cancellable_scaled, cancellable_sums));
  CHECK(cancellable_scaled == plain_scaled);
  CHECK(cancellable_sums == plain_sums);
  int expected = 0;
  for (std::size_t i = 0; i < 64; ++i) expected += values[i];
  CHECK(plain_sums[0] == expected);
}

TEST_CASE("the runtime destructor's deadline cancels an endless PoCL kernel and returns") {
  plexus::RuntimeOptions options;
  options.shutdown_timeout = 300ms;
  std::vector<std::string> failures;  // what the destructor reports nobody observed
  options.async_handler = [&](const std::vector<std::exception_ptr>& errors) {
    for (const auto& failure : errors) {
      try {
        std::rethrow_exception(failure);
      } catch (const plexus::error& e) {
        failures.push_back(std::string(e.category() == error_category::cancelled ? "cancelled: "
                                                                                 : "other: ") +
                           e.what());
      }
    }
  };
  auto rt = pocl_runtime("dag", true, options);
  if (!has_pocl(*rt)) return;
  plexus::Queue q = rt->queue();
  auto kernel = rt->build(long_running).kernel("long_running");
  const std::size_t n = 1 << 22;
  plexus::Buffer<int> out(plexus::Range{n});
  {
    plexus::Event launch = q.submit([&](plexus::Handler& h) {
      h.parallel_for(kernel, plexus::nd_range(plexus::Range{n}, plexus::Range{64}),
                     out.access(h, plexus::discard_write), 1 << 18);
    });
    CHECK_FALSE(launch.wait_for(50ms));
  }
  const auto start = std::chrono::steady_clock::now();
  rt.reset();
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(took >= 300ms);
  CHECK(took < 30s);
  // The cancel ended it (without it the runtime would have left it running, unreported):
  // the destructor reports its cancel error to the handler.
  REQUIRE(failures.size() == 1);
  CHECK_THAT(failures[0], Catch::StartsWith("cancelled: ") &&
                              Catch::Contains("launch of 'long_running'") &&
                              Catch::Contains("work-groups not started by then did not run"));
}

TEST_CASE("cancellable PoCL kernels are not fused, and complete_fusion says why") {
  auto rt = pocl_runtime("dag", true);
  if (!has_pocl(*rt)) return;
  plexus::Queue q = rt->queue();
  plexus::KernelBundle bundle = rt->build(plexus::test::cancel::kernels);
  const std::size_t n = 256;
  std::vector<float> input(n, 2.0f);
  plexus::Buffer<float> in(input.data(), plexus::Range{n}), mid(plexus::Range{n}),
      out(plexus::Range{n});
  q.start_fusion();
  q.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("scale"), plexus::Range{n}, in.access(h, plexus::read),
                   mid.access(h, plexus::discard_write), 1.0f);
  });
  q.submit([&](plexus::Handler& h) {
    h.parallel_for(bundle.kernel("scale"), plexus::Range{n}, mid.access(h, plexus::read),
                   out.access(h, plexus::discard_write), 2.0f);
  });
  require_error([&] { q.complete_fusion({plexus::fuse_or_fail()}); },
                error_category::unsupported, "cancellable kernels are not fused");
  require_error([&] { q.wait(); }, error_category::unsupported, "are not fused");
}

TEST_CASE("without cancel = \"work_group\", PoCL kernels take no cancel cell") {
  auto rt = pocl_runtime("dag", false);
  if (!has_pocl(*rt)) return;
  plexus::KernelBundle bundle = rt->build(held);
  CHECK_FALSE(bundle.kernel("held").info().cancellable);
  CHECK(bundle.kernel("held").info().args.size() == 3);
}
