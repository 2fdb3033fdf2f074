// Host backend: a kernel built with -cl-opt-disable (unoptimised, optnone functions: the
// frontend passed -O2 whatever the options before issue 15) runs with the same results as
// the optimised one: a helper function, __local memory and a barrier.
#include <catch2/catch.hpp>

#include <cstdint>

#include "host_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

TEST_CASE("host: a kernel built with -cl-opt-disable runs like the optimised one",
          "[backend-host]") {
  const char* source = R"(
int weight(int v) { return v * 3 + 1; }
__kernel void reverse_in_group(__global const int* in, __global int* out, __local int* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = weight(in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - l];
}
)";
  Device& device = host_device();
  const std::size_t n = 256, local = 16;
  for (const auto& options :
       {std::vector<std::string>{}, std::vector<std::string>{"-cl-opt-disable"}}) {
    INFO((options.empty() ? "optimised" : "-cl-opt-disable"));
    const CompileResult compiled = compile_for_host(source, options);
    const auto module =
        device.load_module(BinaryFormat::llvm_bitcode, compiled.binary, compiled.kernels);
    DeviceArray<std::int32_t> in(device, n), out(device, n, -1);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::int32_t>(i);
    launch(*module, "reverse_in_group", range1(n, local),
           {in.argument(), out.argument(), KernelArgument::of_local(local * sizeof(std::int32_t))});
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t group = i / local, mirrored = group * local + (local - 1 - i % local);
      CHECK(out[i] == static_cast<std::int32_t>(mirrored) * 3 + 1);
    }
  }
}
