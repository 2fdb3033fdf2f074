// Generator-driven comparison of OpenCL C builtins between two devices: a suite is a list
// of expressions over the inputs x, y, z of one element type and vector width; it becomes
// one kernel that stores each expression's value in its own output slot; both devices run
// it on the same inputs (edge cases first, then random ones) and each slot's values are
// compared element by element with the slot's check (exact bits, ULPs, or relative).
// Not thread-safe (test code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "plexus/device.hpp"

namespace plexus::test::builtins {

enum class Scalar { i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

std::size_t size_of(Scalar type);
const char* name_of(Scalar type);  // the OpenCL C name: char ... double
bool is_float(Scalar type);
bool is_signed(Scalar type);

struct Check {
  // half_bits: exact ushort half-precision bits, any NaN agreeing with any NaN.
  enum class Kind { exact, ulps, relative, half_bits } kind = Kind::exact;
  double tolerance = 0;    // ULPs, or the relative error allowed
  bool zero_sign = true;   // false: +0 and -0 agree
  static Check bits() { return {}; }
  static Check ulp(double n) { return {Kind::ulps, n}; }
  static Check rel(double r) { return {Kind::relative, r}; }
  static Check half() { return {Kind::half_bits, 0}; }
  Check any_zero_sign() const { Check c = *this; c.zero_sign = false; return c; }
};

// One output: `expression` (OpenCL C of the suite's vector type, may use x, y, z and a
// GNU statement expression) of element type `result`, compared with `check` where `valid`
// (element index -> bool, empty: everywhere) holds.
struct Slot {
  std::string expression;
  Scalar result;
  Check check;
  std::function<bool(std::size_t)> valid;
};

struct Suite {
  std::string name;     // for messages
  Scalar input;         // element type of x, y, z
  unsigned width = 1;   // 1, 2, 3, 4, 8 or 16
  std::vector<Slot> slots;
  std::string options;  // build options
};

// The inputs of a type: edge cases (zeros, denormals, limits, infinities, NaN, ...) in
// every pair for x and y, then random values (bit patterns and moderate magnitudes).
struct Inputs {
  std::size_t count = 0;
  std::vector<std::byte> x, y, z;
  double as_double(const std::vector<std::byte>& data, std::size_t i) const;
  Scalar type;
};
Inputs make_inputs(Scalar type, std::size_t count, std::uint64_t seed);

// The kernel source of a suite (kernel name "suite").
std::string kernel_source(const Suite& suite, std::size_t count);

// The output bytes of every slot, computed on `device` (a build or launch failure throws
// after INFO of the compiler log).
std::vector<std::vector<std::byte>> run(Device& device, const Suite& suite, const Inputs& inputs);

// Mismatches between the slots computed on two devices (`tested` against `reference`),
// at most `limit` lines described (the count is in the last line), empty when all agree.
std::vector<std::string> compare(const Suite& suite, const Inputs& inputs,
                                 const std::vector<std::vector<std::byte>>& tested,
                                 const std::vector<std::vector<std::byte>>& reference,
                                 std::size_t limit);

}  // namespace plexus::test::builtins
