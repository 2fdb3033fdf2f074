// fusion/llvm on the host device: fused results equal unfused ones (element-wise chains,
// a kernel used twice, different 1D/2D/3D ranges, stencil then reduce with local memory),
// private and local internalization (the fused IR has no global access to the promoted
// buffer, which keeps its old contents), constant propagation.
#include <algorithm>
#include <regex>
#include <sstream>

#include "fusion_test_support.hpp"

using namespace plexus;
using namespace plexus::test;

namespace {

// scale, add_one, and square(y): y = y * y in place.
const std::string chain_source = std::string(scale_add_one_kernels) + R"(
__kernel void square(__global float* y) {
  size_t i = get_global_id(0);
  y[i] = y[i] * y[i];
}
)";

std::vector<float> iota(std::size_t n, float start = 0.0f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return v;
}

// The fused kernel's function in the IR text, from its `define` to the closing brace.
std::string fused_function(const std::string& ir, const std::string& name = "plexus_fused") {
  const auto start = ir.find("@" + name + "(");
  REQUIRE(start != std::string::npos);
  const auto begin = ir.rfind("define", start);
  const auto end = ir.find("\n}", start);
  return ir.substr(begin, end - begin);
}

std::size_t count_lines(const std::string& text, const std::regex& pattern) {
  std::istringstream lines(text);
  std::size_t count = 0;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, pattern)) ++count;
  return count;
}

}  // namespace

TEST_CASE("fusion host: an element-wise chain fused equals unfused", "[fusion][backend-host]") {
  TestProgram program;
  program.source = chain_source;
  const std::size_t n = 1024;
  program.buffers = {{1, iota(n)}, {2, std::vector<float>(n, -1.0f)}, {3, std::vector<float>(n)}};
  program.scalars = {{4, bytes_of(3.0f)}};
  program.kernels = {{"scale", range1(n), {{1}, {2}, {4}}},
                     {"add_one", range1(n), {{2}, {3}}},
                     {"square", range1(n), {{3}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1, 2, 4, 3});
  CHECK(fused.kernel.name == "plexus_fused");
  CHECK(fused.kernel.args.size() == 4);
  CHECK(fused.kernel.uses_barriers);  // barriers between kernels by default
  CHECK(fused.promoted.empty());
  CHECK(fused.range.global[0] == n);
}

TEST_CASE("fusion host: no barriers when asked", "[fusion][backend-host]") {
  TestProgram program;
  program.source = chain_source;
  program.buffers = {{1, iota(256)}, {2, std::vector<float>(256)}, {3, std::vector<float>(256)}};
  program.scalars = {{4, bytes_of(2.0f)}};
  program.kernels = {{"scale", range1(256), {{1}, {2}, {4}}}, {"add_one", range1(256), {{2}, {3}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program, FusionBarrier::none);
  CHECK_FALSE(fused.kernel.uses_barriers);
}

TEST_CASE("fusion host: private promotion removes the intermediate's global accesses",
          "[fusion][backend-host]") {
  TestProgram program;
  program.source = chain_source;
  const std::size_t n = 2048;
  program.buffers = {{1, iota(n)}, {2, std::vector<float>(n, 42.0f)}, {3, std::vector<float>(n)}};
  program.scalars = {{4, bytes_of(0.5f)}};
  program.kernels = {{"scale", range1(n), {{1}, {2, Promotion::private_memory}, {4, {}, true}}},
                     {"add_one", range1(n), {{2, Promotion::private_memory}, {3}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program, FusionBarrier::none);
  INFO(fused.ir);
  // Promoted, buffer 2 is neither read nor written (still 42).
  CHECK(fused.promoted == std::vector<std::uint32_t>{2});
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1, 3});  // 2 promoted, 4 constant
  CHECK(fused.warnings.empty());
  const std::string body = fused_function(fused.ir);
  CHECK(count_lines(body, std::regex("store .*addrspace\\(1\\)")) == 1);  // y only
  CHECK(count_lines(body, std::regex("= load .*addrspace\\(1\\)")) == 1);  // x only
  CHECK(fused.kernel.args.size() == 2);
  const auto result = run_fused(host_device(), fused, program);
  CHECK(result.at(2) == std::vector<float>(n, 42.0f));
  CHECK(result.at(3)[10] == 10 * 0.5f + 1.0f);
}

TEST_CASE("fusion host: a kernel used twice in the list", "[fusion][backend-host]") {
  TestProgram program;
  program.source = chain_source;
  program.buffers = {{1, iota(64, 1.0f)}};
  program.kernels = {{"square", range1(64), {{1}}}, {"square", range1(64), {{1}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1});
  const auto result = run_fused(host_device(), fused, program);
  CHECK(result.at(1)[2] == 81.0f);  // 3^4
}

TEST_CASE("fusion host: kernels over different 1D, 2D and 3D ranges", "[fusion][backend-host]") {
  TestProgram program;
  program.source = R"(
__kernel void ids1(__global float* out) {
  size_t i = get_global_id(0);
  out[i] = (float)(i + 1000 * get_global_size(0) + 100000 * get_work_dim());
}
__kernel void ids2(__global float* out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] += (float)(x + 100 * y + 10000 * get_global_size(1));
}
__kernel void ids3(__global float* out) {
  size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
  out[i] = out[i] * 2.0f + (float)(x + 10 * y + 100 * z + get_work_dim());
}
__kernel void small(__global float* out) { out[get_global_id(0)] += 0.5f; }
)";
  program.buffers = {{1, std::vector<float>(96)}, {2, std::vector<float>(96)}};
  program.kernels = {{"ids1", range1(96), {{1}}},
                     {"ids2", range3({12, 8, 1}, {0, 0, 0}, {0, 0, 0}, 2), {{1}}},
                     {"ids3", range3({4, 6, 4}, {0, 0, 0}, {0, 0, 0}, 3), {{1}}},
                     {"small", range1(40), {{1}}},
                     {"ids2", range3({6, 4, 1}, {0, 0, 0}, {0, 0, 0}, 2), {{2}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.range.global_count() == 96);
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1, 2});
}

TEST_CASE("fusion host: stencil then reduce with local memory and a local size",
          "[fusion][backend-host]") {
  TestProgram program;
  program.source = R"(
__kernel void stencil(__global const float* x, __global float* t) {
  size_t i = get_global_id(0), n = get_global_size(0);
  float left = i > 0 ? x[i - 1] : 0.0f, right = i + 1 < n ? x[i + 1] : 0.0f;
  t[i] = left + 2.0f * x[i] + right;
}
__kernel void reduce(__global const float* t, __global float* sums) {
  __local float part[16];
  size_t l = get_local_id(0);
  part[l] = t[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = 8; s > 0; s /= 2) {
    if (l < s) part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) sums[get_group_id(0)] = part[0];
}
)";
  const std::size_t n = 256;
  program.buffers = {{1, iota(n)}, {2, std::vector<float>(n)}, {3, std::vector<float>(n / 16)}};
  program.kernels = {{"stencil", range1(n, 16), {{1}, {2}}}, {"reduce", range1(n, 16), {{2}, {3}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.kernel.uses_local_memory);
  CHECK(fused.range.local[0] == 16);
}

TEST_CASE("fusion host: local promotion of an intermediate shared in a work-group",
          "[fusion][backend-host]") {
  TestProgram program;
  program.source = R"(
__kernel void produce(__global const float* x, __global float* t) {
  size_t i = get_global_id(0);
  t[i] = x[i] * 3.0f;
}
__kernel void consume(__global const float* t, __global float* y) {
  size_t i = get_global_id(0), l = get_local_id(0), base = get_group_id(0) * get_local_size(0);
  y[i] = t[i] + t[base + (l + 1) % get_local_size(0)];
}
)";
  const std::size_t n = 128;
  program.buffers = {{1, iota(n)}, {2, std::vector<float>(n, 7.0f)}, {3, std::vector<float>(n)}};
  program.kernels = {{"produce", range1(n, 16), {{1}, {2, Promotion::local_memory}}},
                     {"consume", range1(n, 16), {{2, Promotion::local_memory}, {3}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  INFO(fused.ir);
  CHECK(fused.promoted == std::vector<std::uint32_t>{2});
  CHECK(fused.kernel.uses_local_memory);
  const std::string body = fused_function(fused.ir);
  CHECK(count_lines(body, std::regex("store .*addrspace\\(1\\)")) == 1);
  CHECK(body.find("addrspace(3)") != std::string::npos);
}

TEST_CASE("fusion host: integer and vector constants are propagated", "[fusion][backend-host]") {
  TestProgram program;
  program.source = R"(
__kernel void combine(__global float* out, int a, float4 v, char c) {
  size_t i = get_global_id(0);
  out[i] = (float)(a * (int)i) + v.x + v.y * v.z - v.w + (float)c;
}
)";
  program.buffers = {{1, std::vector<float>(128)}};
  struct {
    float x, y, z, w;
  } vector{1.5f, 2.0f, 3.0f, 0.25f};
  program.scalars = {{2, bytes_of(-3)}, {3, bytes_of(vector)}, {4, bytes_of(char{5})}};
  program.kernels = {{"combine", range1(128), {{1}, {2, {}, true}, {3, {}, true}, {4, {}, true}}}};
  const FusionResult fused = check_fused_equals_unfused_on_host(program);
  CHECK(fused.arg_identities == std::vector<std::uint32_t>{1});
  CHECK(fused.warnings.empty());
  CHECK(run_fused(host_device(), fused, program).at(1)[2] == -6.0f + 1.5f + 6.0f - 0.25f + 5.0f);
}
