// The host device library against PoCL (the reference OpenCL device here): every OpenCL C
// 1.2 builtin family, generated per element type and vector width, on edge cases (+-0,
// denormals, infinities, NaN, limits) and random inputs, within the specification's ULP
// limits (OpenCL C 1.2 tables 7.1 and 7.2; exact where it asks for exact results).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend_loader.hpp"
#include "builtin_comparison.hpp"
#include "host_test_support.hpp"

namespace plexus::test {
namespace {

using namespace builtins;
using Outputs = std::vector<std::vector<std::byte>>;

constexpr std::size_t input_count = 1536;  // a multiple of 3 and 16; 26 x 26 float edge pairs
constexpr unsigned widths[] = {1, 2, 3, 4, 8, 16};  // every vector width of OpenCL C

// The slots of `suite` computed on PoCL, or nothing (skipped, saying why) without PoCL.
std::optional<Outputs> reference_values(const Suite& suite, const Inputs& inputs) {
  Device* reference = pocl_device();
  if (!reference) return std::nullopt;
  return run(*reference, suite, inputs);
}

// Runs `suite` on the host device and fails with the first mismatches against `reference`
// (the values of the same slots, at this or another width, on PoCL).
void check_suite(const Suite& suite, const Inputs& inputs, const Outputs& reference) {
  const Outputs host_values = run(host_device(), suite, inputs);
  const std::vector<std::string> problems = compare(suite, inputs, host_values, reference, 60);
  std::string text;
  for (const std::string& line : problems) text += line + "\n";
  INFO(text);
  CHECK(problems.empty());
}

// The same, with PoCL running `suite` itself as the reference.
void check_suite(const Suite& suite, const Inputs& inputs) {
  if (const std::optional<Outputs> reference = reference_values(suite, inputs))
    check_suite(suite, inputs, *reference);
}

std::string vname(Scalar type, unsigned width) {
  return std::string(name_of(type)) + (width == 1 ? "" : std::to_string(width));
}

Scalar unsigned_of(Scalar type) {
  switch (type) {
    case Scalar::i8: return Scalar::u8;
    case Scalar::i16: return Scalar::u16;
    case Scalar::i32: case Scalar::f32: return Scalar::u32;
    case Scalar::i64: case Scalar::f64: return Scalar::u64;
    default: return type;
  }
}

Scalar signed_of(Scalar type) {
  switch (type) {
    case Scalar::u8: return Scalar::i8;
    case Scalar::u16: return Scalar::i16;
    case Scalar::u32: case Scalar::f32: return Scalar::i32;
    case Scalar::u64: case Scalar::f64: return Scalar::i64;
    default: return type;
  }
}

// Predicates on the inputs of element i.
struct On {
  const Inputs& in;
  double x(std::size_t i) const { return in.as_double(in.x, i); }
  double y(std::size_t i) const { return in.as_double(in.y, i); }
  double z(std::size_t i) const { return in.as_double(in.z, i); }
};

// `reference`: the suite PoCL runs as the reference, where half_* and native_* are the
// full-precision functions (theirs have PoCL's own precision).
Suite float_math(Scalar f, unsigned w, const Inputs& in, bool reference = false) {
  const bool single = f == Scalar::f32;
  const std::string vi = vname(Scalar::i32, w);
  const On on{in};
  const auto finite = [on](std::size_t i) { return std::isfinite(on.x(i)); };
  const auto no_nan = [on](std::size_t i) { return !std::isnan(on.x(i)) && !std::isnan(on.y(i)); };
  Suite suite{"math " + vname(f, w), f, w, {}, ""};
  const auto add = [&](std::string expression, Check check, std::function<bool(std::size_t)> valid = {}) {
    suite.slots.push_back({std::move(expression), f, check, std::move(valid)});
  };
  struct Limit { const char* name; double single, twice; };
  const Limit unary[] = {
      {"acos", 4, 4},   {"acosh", 4, 4}, {"acospi", 5, 5}, {"asin", 4, 4},  {"asinh", 4, 4},
      {"asinpi", 5, 5}, {"atan", 5, 5},  {"atanh", 5, 5},  {"atanpi", 5, 5}, {"cbrt", 2, 2},
      {"ceil", 0, 0},   {"cos", 4, 4},   {"cosh", 4, 4},   {"cospi", 4, 4},  {"erfc", 16, 16},
      {"erf", 16, 16},  {"exp", 3, 3},   {"exp2", 3, 3},   {"exp10", 3, 3},  {"expm1", 3, 3},
      {"fabs", 0, 0},   {"floor", 0, 0}, {"log", 3, 3},    {"log2", 3, 3},   {"log10", 3, 3},
      {"log1p", 2, 2},  {"logb", 0, 0},  {"rint", 0, 0},   {"round", 0, 0},  {"rsqrt", 2, 2},
      {"sin", 4, 4},    {"sinh", 4, 4},  {"sinpi", 4, 4},  {"sqrt", 3, 0},   {"tan", 5, 5},
      {"tanh", 5, 5},   {"tanpi", 6, 6}, {"tgamma", 16, 16}, {"trunc", 0, 0}, {"sign", 0, 0},
      {"degrees", 2, 2}, {"radians", 2, 2}};
  for (const Limit& limit : unary)
    add(std::string(limit.name) + "(x)", Check::ulp(single ? limit.single : limit.twice));
  const Limit binary[] = {
      {"atan2", 6, 6}, {"atan2pi", 6, 6}, {"copysign", 0, 0}, {"fdim", 0, 0},
      {"fmod", 0, 0},  {"hypot", 4, 4},   {"maxmag", 0, 0},   {"minmag", 0, 0},
      {"nextafter", 0, 0}, {"pow", 16, 16}, {"remainder", 0, 0}, {"step", 0, 0}};
  for (const Limit& limit : binary)
    add(std::string(limit.name) + "(x, y)", Check::ulp(single ? limit.single : limit.twice));
  add("powr(x, y)", Check::ulp(16), [on](std::size_t i) { return on.x(i) >= 0; });
  // Which zero fmax(+0, -0) and the others give is unspecified (C99 F.9.9.2).
  add("fmax(x, y)", Check::bits().any_zero_sign());
  add("fmin(x, y)", Check::bits().any_zero_sign());
  add("max(x, y)", Check::bits().any_zero_sign(), no_nan);
  add("min(x, y)", Check::bits().any_zero_sign(), no_nan);
  add("fma(x, y, z)", Check::bits());
  add("clamp(x, fmin(y, z), fmax(y, z))", Check::bits().any_zero_sign(),
      [on](std::size_t i) { return !std::isnan(on.x(i)) && !std::isnan(on.y(i)) && !std::isnan(on.z(i)); });
  const auto moderate = [on](std::size_t i) {
    return std::fabs(on.x(i)) < 1e10 && std::fabs(on.y(i)) < 1e10 && std::fabs(on.z(i)) < 1e10;
  };
  // mix may round twice or fuse: compared where x + (y - x) a does not cancel.
  add("mix(x, y, ({ " + vname(f, w) + " w; fabs(fract(z, &w)); }))", Check::rel(single ? 1e-4 : 1e-12),
      [on, moderate](std::size_t i) {
        const double a = on.z(i) - std::floor(on.z(i)), mixed = on.x(i) + (on.y(i) - on.x(i)) * a;
        return moderate(i) && std::fabs(mixed) > 1e-3 * (std::fabs(on.x(i)) + std::fabs(on.y(i)));
      });
  add("lgamma(x)", Check::rel(single ? 1e-5 : 1e-12),
      [on](std::size_t i) { const double x = on.x(i); return std::isfinite(x) && std::fabs(x) < 1e4 && std::fabs(std::lgamma(x)) > 0.1; });
  // Integer arguments and results.
  const std::string n = "convert_" + vi + "_sat(y)";
  add("ldexp(x, " + n + ")", Check::bits());
  add("pown(x, " + n + " % 40)", Check::ulp(16));
  add("rootn(x, " + n + " % 9)", Check::ulp(16));
  suite.slots.push_back({"ilogb(x)", Scalar::i32, Check::bits(), {}});
  suite.slots.push_back({"nan(as_" + vname(unsigned_of(f), w) + "(x) & 0x3fffff)", f, Check::bits(), {}});
  // Pointer arguments: the value and what the pointer received.
  const std::string v = vname(f, w);
  add("({ " + vi + " e; frexp(x, &e); })", Check::bits());
  suite.slots.push_back({"({ " + vi + " e; frexp(x, &e); e; })", Scalar::i32, Check::bits(), finite});
  add("({ " + v + " w; modf(x, &w); })", Check::bits());
  add("({ " + v + " w; modf(x, &w); w; })", Check::bits());
  // fract(-0) and fract(-inf) are -0 (OpenCL C 7.5.1); PoCL 3.1 gives +0.
  add("({ " + v + " w; fract(x, &w); })", Check::bits(), [on](std::size_t i) {
    return on.x(i) != -std::numeric_limits<double>::infinity() && !(on.x(i) == 0 && std::signbit(on.x(i)));
  });
  add("({ " + v + " w; fract(x, &w); w; })", Check::bits());
  add("({ " + vi + " q; remquo(x, y, &q); })", Check::bits());
  suite.slots.push_back({"({ " + vi + " q; remquo(x, y, &q); select(q & 127, -((-q) & 127), q < 0); })",
                         Scalar::i32, Check::bits(), [on](std::size_t i) {
                           return std::isfinite(on.x(i)) && std::isfinite(on.y(i)) && on.y(i) != 0;
                         }});
  add("({ " + v + " c; sincos(x, &c); })", Check::ulp(4));
  add("({ " + v + " c; sincos(x, &c); c; })", Check::ulp(4));
  add("({ " + vi + " s; lgamma_r(x, &s); })", Check::rel(single ? 1e-5 : 1e-12),
      [on](std::size_t i) { const double x = on.x(i); return std::isfinite(x) && std::fabs(x) < 1e4 && std::fabs(std::lgamma(x)) > 0.1; });
  suite.slots.push_back({"({ " + vi + " s; lgamma_r(x, &s); s; })", Scalar::i32, Check::bits(),
                         [on](std::size_t i) { const double x = on.x(i); return std::isfinite(x) && x > -1e4 && (x > 0 || x != std::floor(x)); }});
  // mad may round twice or fuse (OpenCL C 7.4): compared where x y + z does not cancel.
  add("mad(x, y, z)", Check::rel(single ? 1e-5 : 1e-13), [on, moderate](std::size_t i) {
    const double p = on.x(i) * on.y(i), r = p + on.z(i);
    return moderate(i) && std::fabs(r) > 1e-3 * (std::fabs(p) + std::fabs(on.z(i))) && std::fabs(p) > 1e-30;
  });
  // smoothstep(edge0, edge1, x) is undefined for edge0 >= edge1.
  add("smoothstep(x, y, z)", Check::rel(single ? 1e-4 : 1e-12), [on, moderate](std::size_t i) {
    return moderate(i) && on.x(i) < on.y(i) && (on.y(i) - on.x(i)) > 1e-3 * std::fabs(on.x(i)) &&
           std::fabs(on.x(i)) > 1e-20;
  });
  if (single) {
    // half_* and native_* (float only): OpenCL C 1.2 table 7.1 allows 8192 ulps for half_*
    // (sin, cos and tan on |x| <= 2^16); native_* precision is implementation-defined, and
    // this library documents them as its full-precision functions, so they are held to
    // those functions' limits. Both are compared with PoCL's full-precision functions.
    const auto small = [on](std::size_t i) { return std::fabs(on.x(i)) <= 65536; };
    const auto positive = [on](std::size_t i) { return on.x(i) >= 0; };
    struct Relaxed { const char* name; const char* full; double ulps; int arity; };
    const Relaxed relaxed[] = {
        {"cos", "cos(x)", 4, 1},     {"sin", "sin(x)", 4, 1},       {"tan", "tan(x)", 5, 1},
        {"exp", "exp(x)", 3, 1},     {"exp2", "exp2(x)", 3, 1},     {"exp10", "exp10(x)", 3, 1},
        {"log", "log(x)", 3, 1},     {"log2", "log2(x)", 3, 1},     {"log10", "log10(x)", 3, 1},
        {"rsqrt", "rsqrt(x)", 2, 1}, {"sqrt", "sqrt(x)", 3, 1},     {"recip", "1.0f / x", 2.5, 1},
        {"divide", "x / y", 2.5, 2}, {"powr", "powr(x, y)", 16, 2}};
    for (const Relaxed& r : relaxed) {
      const std::string args = r.arity == 1 ? "(x)" : "(x, y)";
      const bool trig = std::string(r.name) == "cos" || std::string(r.name) == "sin" || std::string(r.name) == "tan";
      const bool powr = std::string(r.name) == "powr";
      std::function<bool(std::size_t)> valid;
      if (trig) valid = small;
      if (powr) valid = positive;
      add(reference ? r.full : "half_" + std::string(r.name) + args, Check::ulp(8192), valid);
      add(reference ? r.full : "native_" + std::string(r.name) + args, Check::ulp(r.ulps), powr ? positive : std::function<bool(std::size_t)>{});
    }
  }
  // Relational.
  // 1/0 for every width (vectors give -1/0 in int or long elements).
  const auto truth_of = [&](const std::string& call) {
    return w == 1 ? call : "convert_" + vi + "(-" + call + ")";
  };
  for (const char* name : {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless",
                           "islessequal", "islessgreater", "isordered", "isunordered"})
    suite.slots.push_back({truth_of(std::string(name) + "(x, y)"), Scalar::i32, Check::bits(), {}});
  for (const char* name : {"isfinite", "isinf", "isnan", "isnormal", "signbit"})
    suite.slots.push_back({truth_of(std::string(name) + "(x)"), Scalar::i32, Check::bits(), {}});
  add("bitselect(x, y, z)", Check::bits());
  const std::string si = vname(signed_of(f), w), ui = vname(unsigned_of(f), w);
  // Conditions whose scalar (non-zero) and vector (most significant bit) readings agree.
  const std::string top = single ? "31" : "63", sign_bit = single ? "0x80000000u" : "0x8000000000000000ul";
  add("select(x, y, as_" + si + "(z) >> " + top + ")", Check::bits());
  add("select(x, y, as_" + ui + "(z) & " + sign_bit + ")", Check::bits());
  return suite;
}

TEST_CASE("host builtins: math, common and relational functions of float and double match PoCL",
          "[backend-host][builtins]") {
  // PoCL's scalar results are the reference for every width: its float3 and float16 math
  // has errors of its own (sin of tiny values, cosh(1) = 1, denormals flushed).
  for (Scalar f : {Scalar::f32, Scalar::f64}) {
    const Inputs inputs = make_inputs(f, input_count, 17);
    const std::optional<Outputs> reference = reference_values(float_math(f, 1, inputs, true), inputs);
    if (!reference) return;
    for (unsigned w : widths) {
      INFO(vname(f, w));
      check_suite(float_math(f, w, inputs), inputs, *reference);
    }
  }
}

Scalar widened(Scalar type) {
  switch (type) {
    case Scalar::i8: return Scalar::i16;
    case Scalar::u8: return Scalar::u16;
    case Scalar::i16: return Scalar::i32;
    case Scalar::u16: return Scalar::u32;
    case Scalar::i32: return Scalar::i64;
    default: return Scalar::u64;
  }
}

Suite integer_functions(Scalar t, unsigned w) {
  const std::string v = vname(t, w), u = vname(unsigned_of(t), w), s = vname(signed_of(t), w);
  Suite suite{"integer " + v, t, w, {}, ""};
  const auto add = [&](std::string expression, Scalar result) {
    suite.slots.push_back({std::move(expression), result, Check::bits(), {}});
  };
  for (const char* name : {"abs(x)", "abs_diff(x, y)"}) add(name, unsigned_of(t));
  for (const char* name : {"add_sat(x, y)", "sub_sat(x, y)", "hadd(x, y)", "rhadd(x, y)", "clz(x)",
                           "popcount(x)", "mul_hi(x, y)", "mad_hi(x, y, z)", "mad_sat(x, y, z)",
                           "rotate(x, y)", "min(x, y)", "max(x, y)",
                           "clamp(x, min(y, z), max(y, z)", "bitselect(x, y, z)"})
    add(std::string(name) + (std::string(name).rfind("clamp", 0) == 0 ? ")" : ""), t);
  // Conditions whose scalar (non-zero) and vector (most significant bit) readings agree.
  const std::string bits = std::to_string(size_of(t) * 8 - 1);
  const std::string top = std::string("(") + name_of(unsigned_of(t)) + ")((" + name_of(unsigned_of(t)) + ")1 << " + bits + ")";
  add("select(x, y, (" + s + ")(as_" + s + "(z) >> " + bits + "))", t);
  add("select(x, y, (" + u + ")(as_" + u + "(z) & " + top + "))", t);
  if (size_of(t) < 8) add("upsample(x, as_" + u + "(y))", widened(t));
  if (t == Scalar::i32) {
    add("mul24((x << 8) >> 8, (y << 8) >> 8)", t);
    add("mad24((x << 8) >> 8, (y << 8) >> 8, z)", t);
  }
  if (t == Scalar::u32) {
    add("mul24(x & 0xffffffu, y & 0xffffffu)", t);
    add("mad24(x & 0xffffffu, y & 0xffffffu, z)", t);
  }
  return suite;
}

// ctz, an OpenCL C 2.0 function (built as 2.0).
Suite ctz(Scalar t, unsigned w) {
  return {"ctz " + vname(t, w), t, w, {{"ctz(x)", t, Check::bits(), {}}}, "-cl-std=CL2.0"};
}

// any and all, whose scalar and vector forms differ: PoCL's same width is the reference.
Suite any_all(Scalar t, unsigned w) {
  Suite suite{"any/all " + vname(t, w), t, w, {}, ""};
  for (const char* name : {"any", "all"})
    suite.slots.push_back({"(" + vname(Scalar::i32, w) + ")(" + name + "(x))", Scalar::i32, Check::bits(), {}});
  return suite;
}

TEST_CASE("host builtins: integer functions of every integer type match PoCL",
          "[backend-host][builtins]") {
  // PoCL's scalar results are the reference for every width (its int16 abs_diff is wrong).
  for (Scalar t : {Scalar::i8, Scalar::u8, Scalar::i16, Scalar::u16, Scalar::i32, Scalar::u32,
                   Scalar::i64, Scalar::u64}) {
    const Inputs inputs = make_inputs(t, input_count, 23);
    const std::optional<Outputs> reference = reference_values(integer_functions(t, 1), inputs);
    if (!reference) return;
    const std::optional<Outputs> ctz_reference = reference_values(ctz(t, 1), inputs);
    for (unsigned w : widths) {
      INFO(vname(t, w));
      check_suite(integer_functions(t, w), inputs, *reference);
      check_suite(ctz(t, w), inputs, *ctz_reference);
      if (is_signed(t)) check_suite(any_all(t, w), inputs);
    }
  }
}

// Every convert_<dest>[_sat][_rte|_rtz|_rtp|_rtn] of `source`; float to integer without
// _sat is compared only where the rounded value fits (elsewhere it is undefined).
Suite conversions(Scalar source, unsigned w, const Inputs& in) {
  Suite suite{"convert from " + vname(source, w), source, w, {}, ""};
  const On on{in};
  const char* const modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
  for (int d = 0; d < 10; ++d) {
    const Scalar dest = static_cast<Scalar>(d);
    for (bool sat : {false, true}) {
      if (sat && is_float(dest)) continue;
      for (int m = 0; m < 5; ++m) {
        std::function<bool(std::size_t)> valid;
        if (is_float(source) && !is_float(dest) && !sat) {
          const unsigned bits = static_cast<unsigned>(size_of(dest) * 8);
          const long double low = is_signed(dest) ? -std::ldexp(1.0L, bits - 1) : 0.0L;
          const long double high = std::ldexp(1.0L, is_signed(dest) ? bits - 1 : bits);
          valid = [on, low, high, m](std::size_t i) {
            const long double x = on.x(i);
            const long double r = m == 1 ? std::nearbyintl(x) : m == 3 ? std::ceil(x) : m == 4 ? std::floor(x) : std::trunc(x);
            return r >= low && r < high;  // false for NaN
          };
        }
        suite.slots.push_back({"convert_" + vname(dest, w) + (sat ? "_sat" : "") + modes[m] + "(x)",
                               dest, Check::bits(), valid});
      }
    }
  }
  return suite;
}

TEST_CASE("host builtins: every conversion matches PoCL", "[backend-host][builtins]") {
  for (int s = 0; s < 10; ++s) {
    const Scalar source = static_cast<Scalar>(s);
    const Inputs inputs = make_inputs(source, input_count, 29);
    const std::optional<Outputs> reference = reference_values(conversions(source, 1, inputs), inputs);
    if (!reference) return;
    for (unsigned w : widths) {
      INFO(vname(source, w));
      check_suite(conversions(source, w, inputs), inputs, *reference);
    }
  }
}

Suite geometric(Scalar f, unsigned w, const Inputs& in) {
  const bool single = f == Scalar::f32;
  const On on{in};
  // Vectors of finite inputs below 1e10 (and above 1e-10 where the check is relative, so
  // that cancellation does not decide): the functions' error bounds are relative to their
  // terms, and infinities or NaNs give either (inf + -inf, hypot(inf, nan)).
  const auto each = [on, w](std::size_t i, double low) {
    const std::size_t first = i - i % w;
    for (std::size_t k = first; k < first + w; ++k) {
      const double a = std::fabs(on.x(k)), b = std::fabs(on.y(k));
      if (!(a < 1e10 && b < 1e10 && a > low && b > low)) return false;
    }
    return true;
  };
  const auto moderate = [each](std::size_t i) { return each(i, 1e-10); };
  const auto finite = [each](std::size_t i) { return each(i, -1); };
  Suite suite{"geometric " + vname(f, w), f, w, {}, ""};
  const Check close = Check::rel(single ? 1e-5 : 1e-13);
  const std::string broadcast = "(" + vname(f, w) + ")";
  suite.slots.push_back({broadcast + "(dot(x, y))", f, close, moderate});
  suite.slots.push_back({broadcast + "(length(x))", f, Check::ulp(4), finite});
  suite.slots.push_back({broadcast + "(distance(x, y))", f, close, moderate});
  suite.slots.push_back({"normalize(x)", f, close, moderate});
  suite.slots.push_back({std::string("normalize(x * ") + (single ? "0x1p-100f" : "0x1p-600") + ")", f, close, moderate});
  if (w == 3 || w == 4) suite.slots.push_back({"cross(x, y)", f, Check::rel(single ? 1e-3 : 1e-10), moderate});
  if (single) {
    suite.slots.push_back({broadcast + "(fast_length(x))", f, Check::rel(1e-3), moderate});
    suite.slots.push_back({broadcast + "(fast_distance(x, y))", f, Check::rel(1e-3), moderate});
    suite.slots.push_back({"fast_normalize(x)", f, Check::rel(1e-3), moderate});
  }
  return suite;
}

TEST_CASE("host builtins: geometric functions match PoCL", "[backend-host][builtins]") {
  for (Scalar f : {Scalar::f32, Scalar::f64}) {
    const Inputs inputs = make_inputs(f, input_count, 31);
    for (unsigned w : {1u, 2u, 3u, 4u}) {
      INFO(vname(f, w));
      check_suite(geometric(f, w, inputs), inputs);
    }
  }
}

// vstore_half (each rounding mode) of float and double, vload_half and vloada_half of
// every half bit pattern, shuffle and shuffle2.
Suite halves(Scalar f, unsigned w) {
  Suite suite{"half " + vname(f, w), f, w, {}, ""};
  const std::string n = w == 1 ? "" : std::to_string(w), h = vname(Scalar::u16, w);
  // vstorea_half<n> where n > 1 (vstore_half at width 1, so that the slots line up with
  // the scalar reference).
  for (const char* store : {"vstore_half", w == 1 ? "vstore_half" : "vstorea_half"})
    for (const char* mode : {"", "_rte", "_rtz", "_rtp", "_rtn"})
      suite.slots.push_back({"({ " + h + " h; " + store + n + mode + "(x, 0, (half*)&h); h; })",
                             Scalar::u16, Check::half(), {}});
  if (f == Scalar::f32) {
    // Every half bit pattern, from the inputs' bits: vload_half, and vloada_half where it
    // reads the same elements (not for 3, whose aligned stride is 4).
    const std::string bits = "convert_" + h + "(as_" + vname(Scalar::u32, w) + "(x) >> 16)";
    const bool aligned = w != 1 && w != 3;
    for (const std::string load : {"vload_half", aligned ? "vloada_half" : "vload_half"})
      suite.slots.push_back({"({ " + h + " h = " + bits + "; " + load + n + "(0, (half*)&h); })",
                             Scalar::f32, Check::bits(), {}});
  }
  return suite;
}

Suite shuffles(Scalar t, unsigned w) {
  Suite suite{"shuffle " + vname(t, w), t, w, {}, ""};
  const std::string mask = "as_" + vname(unsigned_of(t), w) + "(y)";
  // Inputs of every width n (2, 4, 8, 16) with a mask of the suite's width: the first n
  // components of x (and z), or x and z repeated.
  for (unsigned n : {2u, 4u, 8u, 16u}) {
    std::string a = "x", b = "z";
    if (n < w) {
      const std::string parts = std::string(".s0123456789abcdef").substr(0, n + 2);
      a = "x" + parts, b = "z" + parts;
    } else if (n > w) {
      a = "(" + vname(t, n) + ")(x", b = "(" + vname(t, n) + ")(z";
      for (unsigned k = 1; k < n / w; ++k) a += k % 2 ? ", z" : ", x", b += k % 2 ? ", x" : ", z";
      a += ")", b += ")";
    }
    suite.slots.push_back({"shuffle(" + a + ", " + mask + ")", t, Check::bits(), {}});
    suite.slots.push_back({"shuffle2(" + a + ", " + b + ", " + mask + ")", t, Check::bits(), {}});
  }
  return suite;
}

TEST_CASE("host builtins: half loads and stores and shuffles match PoCL", "[backend-host][builtins]") {
  // PoCL's scalar results are the reference (its double16 vstore_half16 is wrong).
  for (Scalar f : {Scalar::f32, Scalar::f64}) {
    const Inputs inputs = make_inputs(f, input_count, 37);
    const std::optional<Outputs> reference = reference_values(halves(f, 1), inputs);
    if (!reference) return;
    for (unsigned w : widths) {
      INFO(vname(f, w));
      check_suite(halves(f, w), inputs, *reference);
    }
  }
  for (int s = 0; s < 10; ++s) {
    const Scalar t = static_cast<Scalar>(s);
    const Inputs inputs = make_inputs(t, input_count, 41);
    for (unsigned w : {2u, 4u, 8u, 16u}) {
      INFO(vname(t, w));
      check_suite(shuffles(t, w), inputs);
    }
  }
}

TEST_CASE("host builtins: async work-group copies, strided both ways, and prefetch",
          "[backend-host][builtins]") {
  const char* const source = R"(
__kernel void copy(__global const int4* in, __global int4* out, __local int4* scratch) {
  size_t group = get_group_id(0), n = get_local_size(0) * 2;
  prefetch(in + group * n, n);
  event_t e = async_work_group_copy(scratch, in + group * n, n, 0);
  wait_group_events(1, &e);
  scratch[get_local_id(0)] += (int4)(1);
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_strided_copy(out + group * n * 2, scratch, n, 2, 0);
  wait_group_events(1, &e);
  e = async_work_group_strided_copy(scratch, in + group * n, n / 2, 2, 0);
  wait_group_events(1, &e);
  e = async_work_group_copy(out + group * n * 2 + 1, scratch, 1, 0);
  wait_group_events(1, &e);
})";
  Device& device = host_device();
  const auto module = build(device, source);
  constexpr std::size_t local = 16, groups = 4, n = local * 2;
  DeviceArray<std::int32_t> in(device, groups * n * 4), out(device, groups * n * 2 * 4, -1);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::int32_t>(i);
  const std::size_t scratch_bytes = n * 16;
  launch(*module, "copy", range1(groups * local, local),
         {in.argument(), out.argument(), KernelArgument::of_local(scratch_bytes)});
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t c = 0; c < 4; ++c) {
        const std::size_t at = ((g * n * 2) + k * 2) * 4 + c;
        const std::int32_t expected = static_cast<std::int32_t>((g * n + k) * 4 + c) + (k < local ? 1 : 0);
        INFO("group " << g << " element " << k << " component " << c);
        REQUIRE(out[at] == expected);
        // Slot 1 of the group: scratch[0] after the strided gather, i.e. in[group * n].
        const std::size_t second = ((g * n * 2) + 1) * 4 + c;
        REQUIRE(out[second] == static_cast<std::int32_t>((g * n) * 4 + c));
      }
}

}  // namespace
}  // namespace plexus::test
