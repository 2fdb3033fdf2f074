// Checked kernels (checks = "bounds") with USM pointer arguments, on the host device and
// PoCL: an access is bounded by the USM allocation the pointer points into, wherever in it
// the pointer points, and a violation names the argument, the bytes and the allocation.
#include <catch2/catch.hpp>

#include "runtime_test_support.hpp"

using plexus::error_category;
using plexus::test::require_error;

namespace {

const char* const poke = R"(
__kernel void poke(__global int* p, int at) { if (get_global_id(0) == 0) p[at] = 7; }
)";

}  // namespace

TEST_CASE("a checked kernel's accesses through a USM pointer are bounded by its allocation") {
  auto rt = plexus::test::make_runtime({"inorder", "whole"}, "\"host\", \"opencl\"",
                                       "[compiler.clang]\nchecks = \"bounds\"\n");
  const plexus::KernelBundle bundle = rt->build(poke);
  for (plexus::Device* device : rt->devices()) {
    DYNAMIC_SECTION(device->info().name) {
      if (!plexus::test::has_usm_device_memory(*device, *rt)) continue;
      plexus::Queue q = rt->queue(*device);
      int* data = plexus::malloc_device<int>(16, q);  // 64 bytes; the kernel gets data + 4
      q.parallel_for(bundle.kernel("poke"), plexus::Range{1}, data + 4, 11).wait();  // last
      q.parallel_for(bundle.kernel("poke"), plexus::Range{1}, data + 4, -4).wait();  // first
      int value = 0;
      q.memcpy(&value, data + 15, sizeof value).wait();
      CHECK(value == 7);
      require_error(
          [&] { q.parallel_for(bundle.kernel("poke"), plexus::Range{1}, data + 4, 12).wait(); },
          error_category::invalid_argument,
          "argument 1 ('p'): accessed bytes [48, 52) from the pointer, outside its USM "
          "allocation of 64 bytes (the pointer is 16 bytes into it)");
      plexus::Queue fresh = rt->queue(*device);  // q's later groups fail with its failure
      require_error(
          [&] { fresh.parallel_for(bundle.kernel("poke"), plexus::Range{1}, data + 4, -5).wait(); },
          error_category::invalid_argument, "accessed bytes [-20, -16) from the pointer");
      plexus::free(data, q);
    }
  }
}
