// A read accessor bound to a parameter the kernel stores through is a warning at
// parallel_for (issue 15 item 6). What the compiler finds (KernelArgInfo::written): definite
// stores through the parameter, in the kernel, in functions it calls and through builtins
// that write; a parameter only read, const or not, is not written.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "log_capture.hpp"
#include "runtime_test_support.hpp"

using plexus::test::make_runtime;

namespace {

const char* const kernels = R"(
void put(__global float* p, size_t i, float v) { p[i] = v; }
__kernel void stores(__global float* only_read, __global float* out) {
  size_t i = get_global_id(0);
  out[i] = only_read[i] * 2.0f;
}
__kernel void through_helper(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  put(out, i, in[i]);
}
__kernel void atomics(__global int* counter, __global const int* in) {
  atomic_add(counter, in[get_global_id(0)]);
}
__kernel void vectors(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  vstore4(vload4(i, in), i, out);
}
__kernel void chosen(__global float* a, __global float* b, int which) {
  __global float* p = which ? a : b;
  p[get_global_id(0)] = 1.0f;
}
)";

// The written flags of `kernel`'s parameters, in order.
std::vector<bool> written(const plexus::KernelBundle& bundle, const std::string& kernel) {
  std::vector<bool> flags;
  for (const plexus::KernelArgInfo& arg : bundle.kernel(kernel).info().args)
    flags.push_back(arg.written);
  return flags;
}


}  // namespace

TEST_CASE("the compiler finds the parameters a kernel stores through, at -O2 and -O0") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  for (const char* options : {"", "-cl-opt-disable"}) {
    DYNAMIC_SECTION("options '" << options << "'") {
      plexus::KernelBundle bundle = rt->build(kernels, options);
      CHECK(written(bundle, "stores") == std::vector<bool>{false, true});
      CHECK(written(bundle, "through_helper") == std::vector<bool>{false, true});
      CHECK(written(bundle, "atomics") == std::vector<bool>{true, false});
      CHECK(written(bundle, "vectors") == std::vector<bool>{false, true});
      CHECK(written(bundle, "chosen") == std::vector<bool>{true, true, false});
    }
  }
}

TEST_CASE("a read accessor on a parameter the kernel stores through is a warning") {
  auto rt = make_runtime({"inorder", "whole"}, "\"host\"");
  plexus::Queue q = rt->queue();
  plexus::KernelBundle bundle = rt->build(kernels);
  std::vector<float> values(64, 1.0f);
  plexus::Buffer<float> in(values.data(), 64), out(values.data(), 64);
  auto launch = [&](plexus::AccessMode in_mode, plexus::AccessMode out_mode) {
    plexus::test::LogCapture log;
    q.submit([&](plexus::Handler& h) {
      h.parallel_for(bundle.kernel("stores"), plexus::Range{64}, in.access(h, in_mode),
                     out.access(h, out_mode));
    });
    q.wait();
    return log.text();
  };
  // Read where it only reads (the parameter is not const): no warning.
  CHECK(launch(plexus::read, plexus::read_write).empty());
  const std::string warning = launch(plexus::read, plexus::read);
  CHECK_THAT(warning, Catch::Contains("kernel 'stores', argument 2 ('out'): a read accessor, "
                                      "but the kernel stores through this parameter"));
  CHECK_THAT(warning, Catch::Contains("warn"));
  CHECK_THAT(warning, !Catch::Contains("'only_read'"));
}
