// OpenCL C 2.0 work-group collective functions and the sub-group functions on the host
// backend, against a CPU reference; the work-group kernels also run on PoCL, the reference
// device here, where it has them (PoCL 3.1 does not: its build fails naming them, and the
// test says so). Values are small integers, also as float and double, so that every sum
// is exact in any order.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../compiler/compiler_test_support.hpp"
#include "backend_loader.hpp"
#include "host_test_support.hpp"
#include "plexus/device_queue.hpp"

namespace plexus::test {
namespace {

// Runs kernel "k"(in, out) of `source` on `device` over `range`; out has `outputs` slots of
// in.size() values each.
template <class T>
std::vector<T> run(Device& device, const std::string& source, const NdRange& range,
                   const std::vector<T>& in, std::size_t outputs) {
  const BinaryFormat format = device.info().formats.front();
  const CompileResult compiled =
      clang_compiler().compile(request(source, format, {"-cl-std=CL2.0"}));
  INFO(device.info().name << ":\n" << compiled.log << "\n" << source);
  REQUIRE(compiled.succeeded);
  const auto module = device.load_module(format, compiled.binary, compiled.kernels);
  const auto queue = device.create_queue();
  const std::size_t in_bytes = in.size() * sizeof(T), out_bytes = in_bytes * outputs;
  void* a = device.allocate(in_bytes);
  void* b = device.allocate(out_bytes);
  queue->copy_to_device(a, in.data(), CopyLayout::contiguous(0, in_bytes));
  const std::vector<KernelArgument> arguments{KernelArgument::of_allocation(a),
                                              KernelArgument::of_allocation(b)};
  queue->launch(module->kernel("k"), range, arguments);
  std::vector<T> out(in.size() * outputs);
  queue->copy_to_host(out.data(), b, CopyLayout::contiguous(0, out_bytes));
  queue->wait();
  device.deallocate(a);
  device.deallocate(b);
  return out;
}

template <class T> const char* type_name();
template <> const char* type_name<std::int32_t>() { return "int"; }
template <> const char* type_name<std::uint32_t>() { return "uint"; }
template <> const char* type_name<std::int64_t>() { return "long"; }
template <> const char* type_name<std::uint64_t>() { return "ulong"; }
template <> const char* type_name<float>() { return "float"; }
template <> const char* type_name<double>() { return "double"; }

template <class T>
std::vector<T> inputs(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<T> values(count);
  const bool is_unsigned = std::is_unsigned_v<T>;
  for (T& v : values) v = static_cast<T>(static_cast<std::int64_t>(random() % 201) - (is_unsigned ? 0 : 100));
  return values;
}

// The scope's values in local linear order -> each work-item's expected value of a slot.
struct Operation {
  std::string expression;  // OpenCL C: the slot's value, of the element type
  // (values of the scope, the caller's index in it) -> expected
  std::function<double(const std::vector<double>&, std::size_t)> expected;
};

template <class T>
std::vector<Operation> operations(const std::string& scope) {
  const double largest = std::is_floating_point_v<T> ? std::numeric_limits<double>::infinity()
                                                     : static_cast<double>(std::numeric_limits<T>::max());
  const double smallest = std::is_floating_point_v<T> ? -std::numeric_limits<double>::infinity()
                                                      : static_cast<double>(std::numeric_limits<T>::lowest());
  using Values = const std::vector<double>&;
  const auto fold = [](Values v, std::size_t from, std::size_t to, double start, int op) {
    double r = start;
    for (std::size_t i = from; i < to; ++i) r = op == 0 ? r + v[i] : op == 1 ? std::min(r, v[i]) : std::max(r, v[i]);
    return r;
  };
  std::vector<Operation> ops;
  const char* names[] = {"add", "min", "max"};
  const double starts[] = {0.0, largest, smallest};
  for (int op = 0; op < 3; ++op) {
    const double start = starts[op];
    ops.push_back({scope + "_reduce_" + names[op] + "(x)",
                   [=](Values v, std::size_t) { return fold(v, 0, v.size(), start, op); }});
    ops.push_back({scope + "_scan_inclusive_" + names[op] + "(x)",
                   [=](Values v, std::size_t me) { return fold(v, 0, me + 1, start, op); }});
    ops.push_back({scope + "_scan_exclusive_" + names[op] + "(x)",
                   [=](Values v, std::size_t me) { return fold(v, 0, me, start, op); }});
  }
  ops.push_back({"(" + std::string(type_name<T>()) + ")(" + scope + "_all(x > (" + type_name<T>() + ")20) != 0)",
                 [](Values v, std::size_t) { return std::all_of(v.begin(), v.end(), [](double d) { return d > 20; }) ? 1.0 : 0.0; }});
  ops.push_back({"(" + std::string(type_name<T>()) + ")(" + scope + "_any(x > (" + type_name<T>() + ")90) != 0)",
                 [](Values v, std::size_t) { return std::any_of(v.begin(), v.end(), [](double d) { return d > 90; }) ? 1.0 : 0.0; }});
  // Repeated use of the scratch: a loop of reductions.
  ops.push_back({"({ " + std::string(type_name<T>()) + " r = 0; for (int k = 0; k < 3; ++k) r += " + scope +
                     "_reduce_max(x + (" + type_name<T>() + ")k); r; })",
                 [=](Values v, std::size_t) { return 3 * fold(v, 0, v.size(), smallest, 2) + 3; }});
  return ops;
}

std::string kernel_source(const std::string& type, const std::vector<Operation>& ops,
                          const std::string& extra_slots = "") {
  std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                       "__kernel void k(__global const " + type + "* in, __global " + type + "* out) {\n"
                       "  size_t i = get_global_linear_id(), n = get_global_size(0) * get_global_size(1);\n"
                       "  " + type + " x = in[i];\n";
  for (std::size_t s = 0; s < ops.size(); ++s)
    source += "  out[" + std::to_string(s) + " * n + i] = " + ops[s].expression + ";\n";
  source += extra_slots + "}\n";
  return source;
}

// The work-items of each work-group of `range` in local linear order (global linear ids).
std::vector<std::vector<std::size_t>> groups_of(const NdRange& range) {
  std::vector<std::vector<std::size_t>> groups;
  const std::size_t gx = range.global[0], lx = range.local[0], ly = range.local[1];
  for (std::size_t by = 0; by < range.global[1] / ly; ++by)
    for (std::size_t bx = 0; bx < gx / lx; ++bx) {
      std::vector<std::size_t>& members = groups.emplace_back();
      for (std::size_t y = 0; y < ly; ++y)
        for (std::size_t x = 0; x < lx; ++x) members.push_back((by * ly + y) * gx + bx * lx + x);
    }
  return groups;
}

// Checks `out` (slots of ops) against the reference over scopes of `scope_size` work-items
// (the work-group: its size).
template <class T>
void check(const std::vector<T>& in, const std::vector<T>& out, const std::vector<Operation>& ops,
           const NdRange& range, std::size_t scope_size, const std::string& device) {
  const std::size_t n = in.size();
  std::size_t wrong = 0;
  for (const std::vector<std::size_t>& group : groups_of(range))
    for (std::size_t first = 0; first < group.size(); first += scope_size) {
      const std::size_t last = std::min(group.size(), first + scope_size);
      std::vector<double> values;
      for (std::size_t k = first; k < last; ++k) values.push_back(static_cast<double>(in[group[k]]));
      for (std::size_t s = 0; s < ops.size(); ++s)
        for (std::size_t k = first; k < last; ++k) {
          const double want = ops[s].expected(values, k - first);
          const double got = static_cast<double>(out[s * n + group[k]]);
          if (got != want && wrong++ < 5)
            UNSCOPED_INFO(device << ": " << ops[s].expression << " of work-item " << group[k]
                                 << " (scope index " << k - first << "): " << got << ", want " << want);
        }
    }
  CHECK(wrong == 0);
}

NdRange range2(std::size_t gx, std::size_t gy, std::size_t lx, std::size_t ly) {
  NdRange range = range3({gx, gy, 1}, {lx, ly, 1}, {0, 0, 0}, 2);
  return range;
}

template <class T>
void work_group_case() {
  const std::string type = type_name<T>();
  const std::vector<Operation> ops = operations<T>("work_group");
  // A broadcast from the last work-item (two-dimensional local id).
  std::vector<Operation> all = ops;
  all.push_back({"work_group_broadcast(x, get_local_size(0) - 1, get_local_size(1) - 1)", {}});
  const std::string source = kernel_source(type, all);
  for (const NdRange& range : {range2(64, 4, 16, 4), range2(96, 2, 48, 1), range2(60, 3, 20, 3)}) {
    const std::vector<T> in = inputs<T>(range.global[0] * range.global[1], 7);
    const std::size_t group = range.local[0] * range.local[1];
    INFO(type << ", work-groups of " << range.local[0] << " x " << range.local[1]);
    std::vector<Device*> devices{&host_device()};
    if (Device* pocl = pocl_device()) devices.push_back(pocl);
    for (Device* device : devices) {
      std::vector<T> out;
      try {
        out = run(*device, source, range, in, all.size());
      } catch (const error& failure) {
        // PoCL 3.1's kernel library has no work_group_* functions: its build fails naming them.
        if (device == &host_device() ||
            std::string(failure.what()).find("Cannot find symbol _Z") == std::string::npos)
          throw;
        static bool warned = false;
        if (!std::exchange(warned, true))
          WARN("PoCL lacks the work-group collectives, compared with the CPU reference only: "
               << std::string(failure.what()).substr(0, 300));
        continue;
      }
      check(in, out, ops, range, group, device->info().name);
      // The broadcast: the last work-item of each group.
      const std::size_t slot = ops.size(), n = in.size();
      std::size_t wrong = 0;
      for (const std::vector<std::size_t>& members : groups_of(range))
        for (std::size_t member : members)
          wrong += out[slot * n + member] != in[members.back()];
      INFO(device->info().name << ": work_group_broadcast");
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("host collectives: work-group reduce, scan, broadcast, all and any of every type "
          "match a CPU reference and PoCL", "[backend-host][collectives]") {
  work_group_case<std::int32_t>();
  work_group_case<std::uint32_t>();
  work_group_case<std::int64_t>();
  work_group_case<std::uint64_t>();
  work_group_case<float>();
  work_group_case<double>();
}

template <class T>
void sub_group_case() {
  const std::string type = type_name<T>();
  const std::vector<Operation> ops = operations<T>("sub_group");
  // After the collectives: the sub-group's numbers, a broadcast, shuffles (with the
  // relative ones), and a reduction that only even sub-groups reach (a sub-group barrier
  // waits for its own work-items).
  const std::size_t base = ops.size();
  const std::string extra =
      "  out[" + std::to_string(base) + " * n + i] = get_sub_group_size();\n"
      "  out[" + std::to_string(base + 1) + " * n + i] = get_max_sub_group_size();\n"
      "  out[" + std::to_string(base + 2) + " * n + i] = get_num_sub_groups();\n"
      "  out[" + std::to_string(base + 3) + " * n + i] = get_sub_group_id();\n"
      "  out[" + std::to_string(base + 4) + " * n + i] = get_sub_group_local_id();\n"
      "  out[" + std::to_string(base + 5) + " * n + i] = sub_group_broadcast(x, get_sub_group_size() - 1);\n"
      "  out[" + std::to_string(base + 6) + " * n + i] = sub_group_shuffle(x, (get_sub_group_local_id() + 1) % get_sub_group_size());\n"
      "  out[" + std::to_string(base + 7) + " * n + i] = sub_group_shuffle_xor(x, 1u);\n"
      "  " + type + " even = 0;\n"
      "  if (get_sub_group_id() % 2 == 0) even = sub_group_reduce_add(x);\n"
      "  sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  out[" + std::to_string(base + 8) + " * n + i] = even;\n"
      "  out[" + std::to_string(base + 9) + " * n + i] = sub_group_shuffle_up(x, 1u);\n"
      "  out[" + std::to_string(base + 10) + " * n + i] = sub_group_shuffle_down(x, 2u);\n";
  const std::string source = "#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable\n" +
                             kernel_source(type, ops, extra);
  Device& device = host_device();
  for (const NdRange& range : {range2(64, 4, 16, 4), range2(60, 3, 20, 3), range2(21, 2, 7, 1)}) {
    const std::vector<T> in = inputs<T>(range.global[0] * range.global[1], 11);
    const std::size_t group = range.local[0] * range.local[1], n = in.size();
    INFO(type << ", work-groups of " << range.local[0] << " x " << range.local[1]);
    const std::vector<T> out = run(device, source, range, in, base + 11);
    // The sub-group size: the host's vector width in 32-bit lanes.
    const std::size_t lanes = static_cast<std::size_t>(out[(base + 1) * n]);
    CHECK((lanes == std::min<std::size_t>(group, 4) || lanes == std::min<std::size_t>(group, 8) ||
           lanes == std::min<std::size_t>(group, 16)));
    const std::size_t size = group < lanes ? group : lanes;
    check(in, out, ops, range, size, device.info().name);
    std::size_t wrong = 0;
    for (const std::vector<std::size_t>& members : groups_of(range))
      for (std::size_t k = 0; k < members.size(); ++k) {
        const std::size_t first = k / size * size, count = std::min(size, members.size() - first);
        const std::size_t me = members[k];
        double sum = 0;
        for (std::size_t j = first; j < first + count; ++j) sum += static_cast<double>(in[members[j]]);
        const double want[] = {double(count), double(size), double((members.size() + size - 1) / size),
                               double(k / size), double(k - first),
                               double(in[members[first + count - 1]]),
                               double(in[members[first + (k - first + 1) % count]]),
                               double(in[members[first + (((k - first) ^ 1) < count ? (k - first) ^ 1 : k - first)]]),
                               (k / size) % 2 == 0 ? sum : 0.0,
                               // shuffle_up and shuffle_down where the source is in the sub-group
                               k > first ? double(in[members[k - 1]]) : std::nan(""),
                               k + 2 < first + count ? double(in[members[k + 2]]) : std::nan("")};
        for (std::size_t s = 0; s < 11; ++s)
          if (!std::isnan(want[s]) && static_cast<double>(out[(base + s) * n + me]) != want[s] && wrong++ < 5)
            UNSCOPED_INFO("slot " << base + s << " of work-item " << me << ": "
                                  << static_cast<double>(out[(base + s) * n + me]) << ", want " << want[s]);
      }
    CHECK(wrong == 0);
  }
}

TEST_CASE("host sub-groups: sizes, ids, reduce, scan, broadcast, shuffles and barriers of "
          "sub-groups of the vector width match a CPU reference", "[backend-host][collectives]") {
  sub_group_case<std::int32_t>();
  sub_group_case<std::uint32_t>();
  sub_group_case<std::int64_t>();
  sub_group_case<std::uint64_t>();
  sub_group_case<float>();
  sub_group_case<double>();
}

TEST_CASE("host sub-groups: a kernel without barriers reads its sub-group ids in the "
          "work-group loop", "[backend-host][collectives]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void ids(__global uint* out) {
  size_t i = get_global_id(0);
  out[i] = get_sub_group_id() * 10000 + get_sub_group_local_id() * 100 + get_num_sub_groups();
})", {"-cl-std=CL2.0"});
  DeviceArray<std::uint32_t> out(device, 200);
  launch(*module, "ids", range1(200, 40), {out.argument()});
  // The sub-group size, from their count.
  const std::uint32_t groups = out[0] % 100;
  REQUIRE(groups > 0);
  const std::uint32_t size = (40 + groups - 1) / groups;
  for (std::size_t i = 0; i < 200; ++i) {
    const std::size_t local = i % 40;
    INFO("work-item " << i);
    REQUIRE(out[i] == (local / size) * 10000 + (local % size) * 100 + groups);
  }
}

TEST_CASE("host sub-groups: a sub-group barrier that only some work-items of a sub-group "
          "reach fails the launch, naming the sub-group", "[backend-host][collectives]") {
  Device& device = host_device();
  const auto module = build(device, R"(
__kernel void diverge(__global int* out) {
  if (get_sub_group_local_id() == 0) sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = 1;
})", {"-cl-std=CL2.0"});
  DeviceArray<std::int32_t> out(device, 32);
  const auto queue = device.create_queue();
  const std::vector<KernelArgument> arguments{out.argument()};
  queue->launch(module->kernel("diverge"), range1(32, 32), arguments);
  try {
    queue->wait();
    FAIL("the launch succeeded");
  } catch (const error& failure) {
    INFO(failure.what());
    CHECK(failure.category() == error_category::device);
    CHECK_THAT(failure.what(), Catch::Contains("sub-group 0") && Catch::Contains("divergent"));
  }
}

}  // namespace
}  // namespace plexus::test
