// validate_launch and validate_copy: the checks every backend shares, on plain data (no
// device needed), including the exact boundaries.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "plexus/copy_validation.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_parameters.hpp"
#include "plexus/launch_validation.hpp"

using plexus::CopyLayout;
using plexus::KernelArgInfo;
using plexus::KernelArgKind;
using plexus::KernelArgument;
using plexus::NdRange;
using plexus::error_category;

namespace {

plexus::KernelInfo kernel() {
  plexus::KernelInfo info;
  info.name = "k";
  info.args = {{"data", KernelArgKind::global_pointer, 8},
               {"table", KernelArgKind::constant_pointer, 8},
               {"scratch", KernelArgKind::local_pointer, 8},
               {"count", KernelArgKind::scalar, 4}};
  return info;
}

NdRange range_of(std::size_t global, std::size_t local = 0) {
  NdRange range;
  range.global = {global, 1, 1};
  if (local) range.local = {local, 1, 1};
  return range;
}

template <class Action>
void refused(Action action, error_category category, const char* words) {
  try {
    action();
    FAIL("accepted; expected an error mentioning '" << words << "'");
  } catch (const plexus::error& e) {
    INFO(e.what());
    CHECK(e.category() == category);
    CHECK_THAT(e.what(), Catch::Contains(words) && Catch::Contains("launch of k"));
  }
}

}  // namespace

TEST_CASE("validate_launch accepts matching arguments and refuses the rest", "[core][devices]") {
  int memory = 0, count = 3;
  const std::vector<KernelArgument> good = {
      KernelArgument::of_allocation(&memory), KernelArgument::of_allocation(&memory),
      KernelArgument::of_local(64), KernelArgument::of_scalar(&count, 4)};
  const auto info = kernel();
  CHECK_NOTHROW(plexus::validate_launch(info, range_of(16, 4), good, "launch of k"));

  auto with = [&](std::size_t index, KernelArgument argument) {
    auto arguments = good;
    arguments[index] = argument;
    return arguments;
  };
  auto launch = [&](const std::vector<KernelArgument>& arguments, NdRange range = range_of(16)) {
    return [=] { plexus::validate_launch(info, range, arguments, "launch of k"); };
  };
  refused(launch({good.begin(), good.end() - 1}), error_category::invalid_argument,
          "takes 4 argument(s), 3 given");
  refused(launch(with(0, KernelArgument::of_scalar(&count, 4))), error_category::invalid_argument,
          "argument 0 ('data') of kernel 'k' is a __global pointer but a scalar was given");
  refused(launch(with(1, KernelArgument::of_local(8))), error_category::invalid_argument,
          "argument 1 ('table')");
  refused(launch(with(2, KernelArgument::of_allocation(&memory))),
          error_category::invalid_argument, "is a __local pointer but an allocation");
  refused(launch(with(2, KernelArgument::of_local(0))), error_category::invalid_argument,
          "local memory of 0 bytes");
  refused(launch(with(3, KernelArgument::of_scalar(&count, 8))), error_category::invalid_argument,
          "is 4 byte(s), 8 given");
  refused(launch(with(3, KernelArgument::of_scalar(nullptr, 4))),
          error_category::invalid_argument, "value pointer is null");
  refused(launch(with(0, KernelArgument::of_allocation(nullptr))),
          error_category::invalid_argument, "allocation is null");
  refused(launch(good, range_of(10, 4)), error_category::invalid_argument, "not a multiple");

  auto sampled = info;
  sampled.args[3].kind = KernelArgKind::sampler;
  refused([&] { plexus::validate_launch(sampled, range_of(16), good, "launch of k"); },
          error_category::unsupported, "samplers and images are not supported");
}

TEST_CASE("validate_launch holds a range to the kernel's required work-group size",
          "[core][devices]") {
  auto info = kernel();
  info.args.clear();
  info.required_work_group_size = {8, 1, 1};
  CHECK_NOTHROW(plexus::validate_launch(info, range_of(32, 8), {}, "launch of k"));
  CHECK_NOTHROW(plexus::validate_launch(info, range_of(32), {}, "launch of k"));  // the driver's
  refused([&] { plexus::validate_launch(info, range_of(32, 4), {}, "launch of k"); },
          error_category::invalid_argument, "requires the work-group size {8, 1, 1}");
}

TEST_CASE("validate_copy checks pitches, emptiness and the allocation's end",
          "[core][devices]") {
  int device = 0, host = 0;
  auto check = [&](const CopyLayout& layout, std::size_t bytes) {
    plexus::validate_copy(layout, &device, &host, bytes, "copy");
  };
  CHECK(plexus::copy_extent(CopyLayout::contiguous(10, 6)) == 16);
  CHECK(plexus::copy_extent(CopyLayout{4, 8, 3, 2, 16, 64}) == 4 + 64 + 32 + 8);
  CHECK_NOTHROW(check(CopyLayout::contiguous(10, 6), 16));  // ends exactly at the end
  CHECK_NOTHROW(check(CopyLayout{4, 8, 3, 2, 16, 64}, 108));
  CHECK_THROWS_WITH(check(CopyLayout::contiguous(10, 7), 16),
                    Catch::Contains("ends at byte 17, past the allocation's 16 bytes"));
  CHECK_THROWS_WITH(check(CopyLayout{4, 8, 3, 2, 16, 64}, 107), Catch::Contains("past"));
  CHECK_THROWS_WITH(check(CopyLayout{0, 8, 2, 1, 4, 0}, 100), Catch::Contains("row_pitch"));
  CHECK_THROWS_WITH(check(CopyLayout{0, 8, 2, 2, 8, 15}, 100), Catch::Contains("slice_pitch"));
  CHECK_THROWS_WITH(check(CopyLayout{0, 8, 0, 1, 8, 0}, 100), Catch::Contains("empty region"));
  CHECK_THROWS_WITH(plexus::validate_copy(CopyLayout::contiguous(0, 4), nullptr, &host, 8, "copy"),
                    Catch::Contains("device allocation is null"));
  CHECK_THROWS_WITH(plexus::validate_copy(CopyLayout::contiguous(0, 4), &device, nullptr, 8, "copy"),
                    Catch::Contains("host address is null"));
  try {
    check(CopyLayout::contiguous(0, 9), 8);
  } catch (const plexus::error& e) {
    CHECK(e.category() == error_category::invalid_argument);
  }
}

TEST_CASE("largest_divisor_at_most: the work-group size a backend picks", "[core]") {
  CHECK(plexus::largest_divisor_at_most(1024, 256) == 256);
  CHECK(plexus::largest_divisor_at_most(1000, 256) == 250);
  CHECK(plexus::largest_divisor_at_most(997, 256) == 1);  // a prime
  CHECK(plexus::largest_divisor_at_most(10, 256) == 10);
  CHECK(plexus::largest_divisor_at_most(12, 0) == 1);
  CHECK(plexus::largest_divisor_at_most(0, 8) == 1);
}

TEST_CASE("work_group_for: the range's local size, else a divisor up to the limits", "[core]") {
  const auto named = [] { return std::string("launch of 'k'"); };
  plexus::NdRange range;
  range.global = {1000, 1, 1};
  CHECK(plexus::work_group_for(range, 256, 1024, named) == std::array<std::size_t, 3>{250, 1, 1});
  CHECK(plexus::work_group_for(range, 256, 128, named) == std::array<std::size_t, 3>{125, 1, 1});
  range.dimensions = 2;
  range.global = {64, 64, 1};
  range.local = {32, 32, 1};
  CHECK(plexus::work_group_for(range, 256, 1024, named) == std::array<std::size_t, 3>{32, 32, 1});
  try {
    plexus::work_group_for(range, 256, 512, named);
    FAIL("a work-group above the kernel's limit was accepted");
  } catch (const plexus::error& e) {
    CHECK(e.category() == plexus::error_category::invalid_argument);
    CHECK_THAT(e.what(), Catch::Contains("launch of 'k': a work-group of 1024 work-items exceeds "
                                         "the kernel's limit of 512"));
  }
}

TEST_CASE("kernel_parameters: a driver's parameter array, __local parts after a base", "[core]") {
  int buffer[4] = {};
  const float scale = 2.5f;
  const std::uint64_t wide = 7;
  const plexus::KernelArgument arguments[] = {
      plexus::KernelArgument::of_allocation(buffer), plexus::KernelArgument::of_local(20),
      plexus::KernelArgument::of_scalar(&scale, sizeof scale), plexus::KernelArgument::of_local(8),
      plexus::KernelArgument::of_scalar(&wide, sizeof wide)};
  std::uint64_t words[5] = {};
  void* params[5] = {};
  int base_calls = 0;
  const std::size_t shared = plexus::kernel_parameters(
      arguments,
      [&] {
        ++base_calls;
        return std::uint64_t{1024};
      },
      words, params);
  CHECK(base_calls == 1);
  CHECK(shared == 32 + 16);  // 20 -> 32, 8 -> 16: 16-byte-aligned parts
  CHECK(*static_cast<std::uint64_t*>(params[0]) == reinterpret_cast<std::uint64_t>(buffer));
  CHECK(*static_cast<std::uint64_t*>(params[1]) == 1024);
  CHECK(params[2] == &scale);
  CHECK(*static_cast<std::uint64_t*>(params[3]) == 1024 + 32);
  CHECK(params[4] == &wide);

  int calls_without_local = 0;
  CHECK(plexus::kernel_parameters(std::span(arguments, 1),
                                  [&] { return std::uint64_t(++calls_without_local); }, words,
                                  params) == 0);
  CHECK(calls_without_local == 0);
}

TEST_CASE("KernelParameterArray lays out more arguments than it holds in place, and "
          "parameter_value_bytes tells a changed launch", "[core]") {
  std::vector<int> values(20);
  std::vector<plexus::KernelArgument> arguments;
  for (int& value : values) arguments.push_back(plexus::KernelArgument::of_scalar(&value, sizeof value));
  int buffer[2] = {};
  arguments.push_back(plexus::KernelArgument::of_allocation(buffer));
  plexus::KernelParameterArray array;
  CHECK(array.lay_out(arguments, [] { return std::uint64_t{0}; }) == 0);
  for (std::size_t i = 0; i < values.size(); ++i) CHECK(array.params()[i] == &values[i]);
  CHECK(*static_cast<std::uint64_t*>(array.params()[20]) == reinterpret_cast<std::uint64_t>(buffer));

  const std::vector<std::byte> before = plexus::parameter_value_bytes(arguments, array.params());
  CHECK(before.size() == 20 * sizeof(int) + sizeof(std::uint64_t));
  values[7] = 42;  // a scalar changed: other bytes
  CHECK(plexus::parameter_value_bytes(arguments, array.params()) != before);
  values[7] = 0;
  CHECK(plexus::parameter_value_bytes(arguments, array.params()) == before);
  int other[2] = {};
  arguments.back() = plexus::KernelArgument::of_allocation(other);  // a rebound allocation
  array.lay_out(arguments, [] { return std::uint64_t{0}; });
  CHECK(plexus::parameter_value_bytes(arguments, array.params()) != before);
}
