#include "builtin_comparison.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "../compiler/compiler_test_support.hpp"
#include "plexus/device_queue.hpp"
#include "plexus/kernel_argument.hpp"
#include "plexus/nd_range.hpp"

namespace plexus::test::builtins {

std::size_t size_of(Scalar type) {
  switch (type) {
    case Scalar::i8: case Scalar::u8: return 1;
    case Scalar::i16: case Scalar::u16: return 2;
    case Scalar::i32: case Scalar::u32: case Scalar::f32: return 4;
    default: return 8;
  }
}

const char* name_of(Scalar type) {
  static const char* const names[] = {"char", "uchar", "short", "ushort", "int",
                                      "uint", "long",  "ulong", "float",  "double"};
  return names[static_cast<int>(type)];
}

bool is_float(Scalar type) { return type == Scalar::f32 || type == Scalar::f64; }

bool is_signed(Scalar type) {
  return type == Scalar::i8 || type == Scalar::i16 || type == Scalar::i32 || type == Scalar::i64 ||
         is_float(type);
}

namespace {

template <class T>
void put(std::vector<std::byte>& data, std::size_t i, T value) {
  std::memcpy(data.data() + i * sizeof(T), &value, sizeof(T));
}

// Stores `value` (an integer's bits or a floating value) as element i of type `type`.
void store(Scalar type, std::vector<std::byte>& data, std::size_t i, double value,
           std::uint64_t bits, bool use_bits) {
  switch (type) {
    case Scalar::f32: put(data, i, use_bits ? std::bit_cast<float>(static_cast<std::uint32_t>(bits))
                                            : static_cast<float>(value)); break;
    case Scalar::f64: put(data, i, use_bits ? std::bit_cast<double>(bits) : value); break;
    default: {
      const std::uint64_t v = use_bits ? bits : static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
      std::memcpy(data.data() + i * size_of(type), &v, size_of(type));  // little endian
    }
  }
}

std::vector<double> float_edges(Scalar type) {
  const bool single = type == Scalar::f32;
  const double denorm_min = single ? std::numeric_limits<float>::denorm_min()
                                   : std::numeric_limits<double>::denorm_min();
  const double normal_min = single ? std::numeric_limits<float>::min() : std::numeric_limits<double>::min();
  const double largest = single ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
  const double inf = std::numeric_limits<double>::infinity();
  return {0.0, -0.0, denorm_min, -denorm_min, normal_min - denorm_min, normal_min, -normal_min,
          1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0, -7.0, largest, -largest, inf, -inf,
          std::nan(""), 1e-3, 100.25, 3.14159265358979, -1.5707963267949, 0.25, 64.0};
}

std::vector<std::uint64_t> integer_edges(Scalar type) {
  const unsigned bits = static_cast<unsigned>(size_of(type) * 8);
  const std::uint64_t all = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
  const std::uint64_t top = 1ULL << (bits - 1);
  return {0, 1, all, 2, top, top - 1, top + 1, top - 2, all - 1, 0x5555555555555555ULL & all,
          0xaaaaaaaaaaaaaaaaULL & all, 7, all - 7, 100, bits - 1, bits, 0xffULL & all};
}

}  // namespace

double Inputs::as_double(const std::vector<std::byte>& data, std::size_t i) const {
  const std::byte* p = data.data() + i * size_of(type);
  switch (type) {
    case Scalar::f32: { float v; std::memcpy(&v, p, 4); return v; }
    case Scalar::f64: { double v; std::memcpy(&v, p, 8); return v; }
    default: {
      std::uint64_t v = 0;
      std::memcpy(&v, p, size_of(type));
      const unsigned bits = static_cast<unsigned>(size_of(type) * 8);
      if (is_signed(type) && bits < 64 && (v >> (bits - 1)) != 0) v |= ~0ULL << bits;
      return is_signed(type) ? static_cast<double>(static_cast<std::int64_t>(v))
                             : static_cast<double>(v);
    }
  }
}

Inputs make_inputs(Scalar type, std::size_t count, std::uint64_t seed) {
  Inputs inputs;
  inputs.type = type;
  inputs.count = count;
  for (auto* data : {&inputs.x, &inputs.y, &inputs.z}) data->resize(count * size_of(type));
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> moderate(-10.0, 10.0), exponent(-30.0, 30.0);
  const bool floating = is_float(type);
  const std::vector<double> fe = floating ? float_edges(type) : std::vector<double>{};
  const std::vector<std::uint64_t> ie = floating ? std::vector<std::uint64_t>{} : integer_edges(type);
  const std::size_t edges = floating ? fe.size() : ie.size();
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t picks[3];
    const bool edge = i < edges * edges;
    if (edge) picks[0] = i / edges, picks[1] = i % edges, picks[2] = (i * 5 + 3) % edges;
    for (int a = 0; a < 3; ++a) {
      std::vector<std::byte>& data = a == 0 ? inputs.x : a == 1 ? inputs.y : inputs.z;
      if (edge) {
        if (floating) store(type, data, i, fe[picks[a]], 0, false);
        else store(type, data, i, 0, ie[picks[a]], true);
        continue;
      }
      const std::uint64_t bits = random();
      if (!floating) {
        store(type, data, i, 0, bits, true);
      } else if (i % 3 == 0) {  // any bit pattern: every exponent, NaNs, infinities
        store(type, data, i, 0, type == Scalar::f32 ? bits >> 32 : bits, true);
      } else if (i % 3 == 1) {
        store(type, data, i, moderate(random), 0, false);
      } else {
        const double magnitude = std::pow(2.0, exponent(random));
        store(type, data, i, (bits & 1) ? -magnitude : magnitude, 0, false);
      }
    }
  }
  return inputs;
}

namespace {

std::string vector_name(Scalar type, unsigned width) {
  return std::string(name_of(type)) + (width == 1 ? "" : std::to_string(width));
}

std::vector<std::size_t> slot_offsets(const Suite& suite, std::size_t count, std::size_t& total) {
  std::vector<std::size_t> offsets;
  total = 0;
  for (const Slot& slot : suite.slots) {
    offsets.push_back(total);
    total += count * size_of(slot.result);
    total = (total + 63) / 64 * 64;
  }
  return offsets;
}

}  // namespace

std::string kernel_source(const Suite& suite, std::size_t count) {
  std::size_t total = 0;
  const std::vector<std::size_t> offsets = slot_offsets(suite, count, total);
  const std::string v = vector_name(suite.input, suite.width), t = name_of(suite.input);
  std::ostringstream source;
  source << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
         << "__kernel void suite(__global const " << t << "* a, __global const " << t
         << "* b, __global const " << t << "* c, __global uchar* out,\n"
         << "                    __global const uchar* enabled) {\n"
         << "  size_t i = get_global_id(0);\n";
  if (suite.width == 1)
    source << "  " << v << " x = a[i], y = b[i], z = c[i];\n";
  else
    source << "  " << v << " x = vload" << suite.width << "(i, a), y = vload" << suite.width
           << "(i, b), z = vload" << suite.width << "(i, c);\n";
  for (std::size_t k = 0; k < suite.slots.size(); ++k) {
    const Slot& slot = suite.slots[k];
    const std::string pointer =
        "(__global " + std::string(name_of(slot.result)) + "*)(out + " + std::to_string(offsets[k]) + ")";
    // Each slot in a block of its own (enabled[k] is always 1, unknown to the compiler): the
    // back ends schedule each block alone, where one block of all the slots cost time
    // growing with the square of its size (45 % of the conversions test in LLVM's scheduler).
    source << "  if (enabled[" << k << "]) ";
    if (suite.width == 1)
      source << "(" << pointer << ")[i] = " << slot.expression << ";\n";
    else
      source << "vstore" << suite.width << "(" << slot.expression << ", i, " << pointer << ");\n";
  }
  source << "}\n";
  return source.str();
}

std::vector<std::vector<std::byte>> run(Device& device, const Suite& suite, const Inputs& inputs) {
  const BinaryFormat format = device.info().formats.front();
  const std::string source = kernel_source(suite, inputs.count);
  std::vector<std::string> options;
  if (!suite.options.empty()) options.push_back(suite.options);
  const CompileResult compiled = clang_compiler().compile(request(source, format, options));
  INFO(suite.name << " on " << device.info().name << ":\n" << compiled.log << "\n" << source);
  REQUIRE(compiled.succeeded);
  const auto module = device.load_module(format, compiled.binary, compiled.kernels);
  std::size_t total = 0;
  const std::vector<std::size_t> offsets = slot_offsets(suite, inputs.count, total);
  const auto queue = device.create_queue();
  std::vector<void*> allocations;
  std::vector<KernelArgument> arguments;
  for (const std::vector<std::byte>* data : {&inputs.x, &inputs.y, &inputs.z}) {
    allocations.push_back(device.allocate(data->size()));
    queue->copy_to_device(allocations.back(), data->data(),
                          CopyLayout::contiguous(0, data->size()));
    arguments.push_back(KernelArgument::of_allocation(allocations.back()));
  }
  void* const out = device.allocate(total);
  allocations.push_back(out);
  arguments.push_back(KernelArgument::of_allocation(out));
  const std::vector<unsigned char> enabled(suite.slots.size(), 1);  // kernel_source: every slot
  allocations.push_back(device.allocate(enabled.size()));
  queue->copy_to_device(allocations.back(), enabled.data(),
                        CopyLayout::contiguous(0, enabled.size()));
  arguments.push_back(KernelArgument::of_allocation(allocations.back()));
  NdRange range;
  range.dimensions = 1;
  range.global = {inputs.count / suite.width, 1, 1};
  queue->launch(module->kernel("suite"), range, arguments);
  std::vector<std::byte> bytes(total);
  queue->copy_to_host(bytes.data(), out, CopyLayout::contiguous(0, total));
  queue->wait();
  for (void* allocation : allocations) device.deallocate(allocation);
  std::vector<std::vector<std::byte>> outputs;
  for (std::size_t k = 0; k < suite.slots.size(); ++k) {
    const std::byte* begin = bytes.data() + offsets[k];
    outputs.emplace_back(begin, begin + inputs.count * size_of(suite.slots[k].result));
  }
  return outputs;
}

namespace {

double element(Scalar type, const std::vector<std::byte>& data, std::size_t i) {
  Inputs reader;
  reader.type = type;
  return reader.as_double(data, i);
}

// Distance in representable values between two floats of the same type (NaN: 0 when both
// are NaN, else huge).
double ulps_between(Scalar type, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e300;
  const auto ordered = [type](double v) -> long double {
    std::int64_t bits = type == Scalar::f32
                            ? std::bit_cast<std::int32_t>(static_cast<float>(v))
                            : std::bit_cast<std::int64_t>(v);
    const std::int64_t top = type == Scalar::f32 ? std::int64_t{1} << 31 : std::numeric_limits<std::int64_t>::min();
    if (type == Scalar::f32 && bits < 0) return -static_cast<long double>(bits + top);
    if (type == Scalar::f64 && bits < 0) return -static_cast<long double>(bits - top);
    return static_cast<long double>(bits);
  };
  return static_cast<double>(std::fabs(ordered(a) - ordered(b)));
}

bool agrees(const Slot& slot, const std::vector<std::byte>& tested,
            const std::vector<std::byte>& reference, std::size_t i, double& distance) {
  const std::size_t size = size_of(slot.result);
  distance = 0;
  if (std::memcmp(tested.data() + i * size, reference.data() + i * size, size) == 0) return true;
  if (slot.check.kind == Check::Kind::half_bits && size == 2) {
    std::uint16_t t = 0, r = 0;
    std::memcpy(&t, tested.data() + i * 2, 2);
    std::memcpy(&r, reference.data() + i * 2, 2);
    const auto is_nan = [](std::uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; };
    return is_nan(t) && is_nan(r);
  }
  if (!is_float(slot.result)) return false;
  const double t = element(slot.result, tested, i), r = element(slot.result, reference, i);
  if (std::isnan(t) && std::isnan(r)) return true;
  if (!slot.check.zero_sign && t == 0 && r == 0) return true;
  switch (slot.check.kind) {
    case Check::Kind::exact:
    case Check::Kind::half_bits:
      return false;
    case Check::Kind::ulps:
      distance = ulps_between(slot.result, t, r);
      return distance <= slot.check.tolerance;
    case Check::Kind::relative:
      if (std::isnan(t) || std::isnan(r) || std::isinf(t) || std::isinf(r)) return t == r;
      distance = std::fabs(t - r) / std::max(std::fabs(r), 1e-30);
      return std::fabs(t - r) <= slot.check.tolerance * std::max(std::fabs(r), 1e-30);
  }
  return false;
}

std::string show(Scalar type, const std::vector<std::byte>& data, std::size_t i) {
  std::ostringstream out;
  out.precision(type == Scalar::f32 ? 9 : 17);
  out << element(type, data, i);
  if (is_float(type)) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, data.data() + i * size_of(type), size_of(type));
    out << " (0x" << std::hex << bits << ")";
  }
  return out.str();
}

}  // namespace

std::vector<std::string> compare(const Suite& suite, const Inputs& inputs,
                                 const std::vector<std::vector<std::byte>>& tested,
                                 const std::vector<std::vector<std::byte>>& reference,
                                 std::size_t limit) {
  std::vector<std::string> problems;
  std::size_t mismatches = 0;
  for (std::size_t k = 0; k < suite.slots.size(); ++k) {
    const Slot& slot = suite.slots[k];
    std::size_t in_slot = 0;
    for (std::size_t i = 0; i < inputs.count; ++i) {
      if (slot.valid && !slot.valid(i)) continue;
      double distance = 0;
      if (agrees(slot, tested[k], reference[k], i, distance)) continue;
      ++mismatches;
      if (++in_slot > 2 || problems.size() >= limit) continue;  // two examples a slot
      std::ostringstream line;
      line << suite.name << ": " << slot.expression << " at x=" << show(inputs.type, inputs.x, i)
           << " y=" << show(inputs.type, inputs.y, i) << " z=" << show(inputs.type, inputs.z, i)
           << " [element " << i << "]: host " << show(slot.result, tested[k], i) << ", reference "
           << show(slot.result, reference[k], i);
      if (distance > 0) line << " (" << distance << (slot.check.kind == Check::Kind::ulps ? " ulps)" : " relative)");
      problems.push_back(line.str());
    }
    if (in_slot > 2 && problems.size() < limit)
      problems.push_back("  ... " + std::to_string(in_slot) + " mismatches of " + slot.expression);
  }
  if (mismatches > 0) problems.push_back(std::to_string(mismatches) + " mismatches in " + suite.name);
  return problems;
}

}  // namespace plexus::test::builtins
