"""Math and common functions beyond math.cl (OpenCL C 1.2 tables 6.8, 6.9 and 6.12), for
float and double, scalars and vectors: asinh acosh atanh erfc lgamma tgamma logb ilogb
exp10 fdim nextafter remainder maxmag minmag rootn ldexp pown nan, the pi-scaled
functions (sinpi ... atan2pi, computed from an exact reduction), the missing half_* and
native_* forms, and common max, min, smoothstep, step. The functions with pointer
arguments are in math_pointers.py.

Float results are computed in double where libm's float function is missing or the
formula would lose precision; libm comes from the process at JIT time."""
from common import FLOATS, VECTOR_WIDTHS, split, vec

PRELUDE = """
double plexus_exp10(double) __asm("exp10");
#define PLEXUS_PI 3.14159265358979323846
#define PLEXUS_1_PI 0.318309886183790671538
// sin(pi x) and cos(pi x): x reduced exactly (fmod by 2, symmetries), then sin or cos of
// at most pi/4.
static double plexus_sinpi(double x) {
  double y = __builtin_fabs(x);
  if (!(y < __builtin_inf())) return x - x;
  double r = __builtin_fmod(y, 2.0), s = 1.0;
  if (r >= 1.0) { r -= 1.0; s = -1.0; }
  if (r > 0.5) r = 1.0 - r;
  double v = r <= 0.25 ? __builtin_sin(PLEXUS_PI * r) : __builtin_cos(PLEXUS_PI * (0.5 - r));
  return v == 0 ? __builtin_copysign(0.0, x) : (x < 0 ? -s * v : s * v);
}
static double plexus_cospi(double x) {
  double y = __builtin_fabs(x);
  if (!(y < __builtin_inf())) return x - x;
  double r = __builtin_fmod(y, 2.0);
  if (r > 1.0) r = 2.0 - r;
  if (r <= 0.25) return __builtin_cos(PLEXUS_PI * r);
  if (r < 0.75) return __builtin_sin(PLEXUS_PI * (0.5 - r)) + 0.0;
  return -__builtin_cos(PLEXUS_PI * (1.0 - r));
}
// x^(1/n): pow of |x|, then one Newton step for the rounding of 1/n; the sign for odd n.
// A subnormal |x| is scaled by 2^(n k) first (and the root by 2^-k), so that r^n in the
// Newton step keeps its precision.
static double plexus_rootn(double x, int n) {
  if (n == 0 || (x < 0 && (n & 1) == 0)) return __builtin_nan("");
  double a = __builtin_fabs(x);
  int k = 0;
  if (a > 0 && a < 0x1p-1022 && n != 1 && n != -1 && n >= -60 && n <= 60) {
    int m = n < 0 ? -n : n;
    k = (n < 0 ? -1 : 1) * ((60 + m - 1) / m);
    a *= as_double((ulong)(1023 + n * k) << 52);
  }
  double r = __builtin_pow(a, 1.0 / n);
  double p = __builtin_pow(r, (double)n);
  if (r > 0 && r < __builtin_inf() && p >= 0x1p-1022 && p < __builtin_inf())
    r += r * (a / p - 1.0) / n;
  if (k != 0) r *= as_double((ulong)(1023 - k) << 52);
  return (n & 1) ? __builtin_copysign(r, x) : r;
}
"""


def scalars(f):
    """name: (return type, parameter types, body) for the scalar type f."""
    s = "f" if f == "float" else ""
    return {
        "asinh": (f, [f], f"return __builtin_asinh{s}(x);"),
        "acosh": (f, [f], f"return __builtin_acosh{s}(x);"),
        "atanh": (f, [f], f"return __builtin_atanh{s}(x);"),
        "erfc": (f, [f], f"return __builtin_erfc{s}(x);"),
        "lgamma": (f, [f], f"return __builtin_lgamma{s}(x);"),
        "tgamma": (f, [f], f"return __builtin_tgamma{s}(x);"),
        "logb": (f, [f], f"return __builtin_logb{s}(x);"),
        "ilogb": ("int", [f], "return x == 0 ? FP_ILOGB0 : x != x ? FP_ILOGBNAN : "
                              f"__builtin_ilogb{s}(x);"),
        "exp10": (f, [f], "return (float)__builtin_exp((double)x * 2.30258509299404568402);"
                  if f == "float" else "return plexus_exp10(x);"),
        "fdim": (f, [f, f], f"return __builtin_fdim{s}(x, y);"),
        "nextafter": (f, [f, f], f"return __builtin_nextafter{s}(x, y);"),
        "remainder": (f, [f, f], f"return __builtin_remainder{s}(x, y);"),
        "maxmag": (f, [f, f], f"{f} a = __builtin_fabs{s}(x), b = __builtin_fabs{s}(y); "
                              f"return a > b ? x : b > a ? y : __builtin_fmax{s}(x, y);"),
        "minmag": (f, [f, f], f"{f} a = __builtin_fabs{s}(x), b = __builtin_fabs{s}(y); "
                              f"return a < b ? x : b < a ? y : __builtin_fmin{s}(x, y);"),
        "rootn": (f, [f, "int"], f"return ({f})plexus_rootn(x, y);"),
        "ldexp": (f, [f, "int"], f"return __builtin_ldexp{s}(x, y);"),
        "sinpi": (f, [f], f"return ({f})plexus_sinpi(x);"),
        "cospi": (f, [f], f"return ({f})plexus_cospi(x);"),
        "tanpi": (f, [f], f"return ({f})(plexus_sinpi(x) / plexus_cospi(x));"),
        "asinpi": (f, [f], f"return ({f})(__builtin_asin(x) * PLEXUS_1_PI);" if f == "float"
                   else "return __builtin_asin(x) / PLEXUS_PI;"),
        "acospi": (f, [f], f"return ({f})(__builtin_acos(x) * PLEXUS_1_PI);" if f == "float"
                   else "return __builtin_acos(x) / PLEXUS_PI;"),
        "atanpi": (f, [f], f"return ({f})(__builtin_atan(x) * PLEXUS_1_PI);" if f == "float"
                   else "return __builtin_atan(x) / PLEXUS_PI;"),
        "atan2pi": (f, [f, f], f"return ({f})(__builtin_atan2(x, y) * PLEXUS_1_PI);"
                    if f == "float" else "return __builtin_atan2(x, y) / PLEXUS_PI;"),
        "max": (f, [f, f], f"return __builtin_fmax{s}(x, y);"),
        "min": (f, [f, f], f"return __builtin_fmin{s}(x, y);"),
        "smoothstep": (f, [f, f, f], f"{f} t = __builtin_fmin{s}(__builtin_fmax{s}("
                                     f"(z - x) / (y - x), 0), 1); return t * t * (3 - 2 * t);"),
    }


# Already in math.cl for scalars: only their vector forms are new.
VECTOR_ONLY = {"pown": lambda f: (f, [f, "int"])}
# half_* and native_* of float (the full-precision functions).
ALIASES = {"half_cos": "cos", "half_exp2": "exp2", "half_exp10": "exp10", "half_log2": "log2",
           "half_log10": "log10", "half_recip": "native_recip", "half_rsqrt": "rsqrt",
           "half_sin": "sin", "half_tan": "tan", "native_exp10": "exp10",
           "native_log10": "log10", "half_divide": "native_divide", "half_powr": "powr"}
BINARY_ALIASES = {"half_divide", "half_powr"}
NAMES = "xyz"


def definition(ret, name, params, body):
    args = ", ".join(f"{p} {NAMES[i]}" for i, p in enumerate(params))
    return f"PLEXUS_DEF {ret} {name}({args}) {{ {body} }}\n"


def vector_forms(name, ret, params):
    return [split(ret, name, [(p, NAMES[i], "v") for i, p in enumerate(params)], n)
            for n in VECTOR_WIDTHS]


def generate():
    out = [PRELUDE]
    for f in FLOATS:
        for name, (ret, params, body) in scalars(f).items():
            out.append(definition(ret, name, params, body))
            out.extend(vector_forms(name, ret, params))
        for name, signature in VECTOR_ONLY.items():
            out.extend(vector_forms(name, *signature(f)))
        # nan(nancode): a quiet NaN carrying the code.
        code = "uint" if f == "float" else "ulong"
        quiet = "0x7fc00000U" if f == "float" else "0x7ff8000000000000UL"
        out.append(definition(f, "nan", [code], f"return as_{f}({quiet} | x);"))
        out.extend(vector_forms("nan", f, [code]))
        for n in VECTOR_WIDTHS:
            v = vec(f, n)
            out.append(definition(v, "ldexp", [v, "int"], f"return ldexp(x, (int{n})(y));"))
            out.append(definition(v, "max", [v, f], f"return max(x, ({v})(y));"))
            out.append(definition(v, "min", [v, f], f"return min(x, ({v})(y));"))
            out.append(definition(v, "step", [f, v], f"return step(({v})(x), y);"))
            out.append(definition(v, "smoothstep", [f, f, v],
                                  f"return smoothstep(({v})(x), ({v})(y), z);"))
    for n in [1] + VECTOR_WIDTHS:
        v = vec("float", n)
        for alias, name in ALIASES.items():
            if alias in BINARY_ALIASES:
                out.append(definition(v, alias, [v, v], f"return {name}(x, y);"))
            else:
                out.append(definition(v, alias, [v], f"return {name}(x);"))
    return "".join(out)
