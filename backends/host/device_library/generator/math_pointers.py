"""Math functions with a pointer argument (OpenCL C 1.2 table 6.8): fract, frexp, modf,
remquo, sincos, lgamma_r, for float and double, scalars and vectors, each pointer in every
address space (named ones compiled as 1.2, the generic one as 2.0)."""
from common import FLOATS, NAMED_SPACES, VECTOR_WIDTHS, split_out

PRELUDE = """
float plexus_lgammaf_r(float, __private int*) __asm("lgammaf_r");
double plexus_lgamma_r(double, __private int*) __asm("lgamma_r");
// The low 7 bits of the quotient that remainder(x, y) rounded to, with its sign: |x| mod
// 128|y| less the remainder is an integer multiple of |y|.
static int plexus_quotient7(double x, double y, double r) {
  double m = __builtin_fmod(__builtin_fabs(x), 128.0 * __builtin_fabs(y));
  double k = __builtin_rint((m - __builtin_copysign(1.0, x) * r) / __builtin_fabs(y));
  if (!(k == k)) return 0;
  int q = (int)k & 127;
  return (x < 0) != (y < 0) ? -q : q;
}
"""


def scalars(f):
    """name: (parameter types less the pointer, pointed-to type, body)."""
    s = "f" if f == "float" else ""
    below_one = "0x1.fffffep-1f" if f == "float" else "0x1.fffffffffffffp-1"
    lgamma_r = "plexus_lgammaf_r" if f == "float" else "plexus_lgamma_r"
    return {
        "fract": ([f], f, f"{f} w = __builtin_floor{s}(x); *out = w; "
                          f"if (x != x || x == 0) return x; "
                          f"if (__builtin_isinf(x)) return __builtin_copysign{s}(0, x); "
                          f"return __builtin_fmin{s}(x - w, {below_one});"),
        "frexp": ([f], "int", f"int e; {f} r = __builtin_frexp{s}(x, &e); *out = e; return r;"),
        "modf": ([f], f, f"{f} w; {f} r = __builtin_modf{s}(x, &w); *out = w; return r;"),
        "remquo": ([f, f], "int", f"{f} r = __builtin_remainder{s}(x, y); "
                                  f"*out = plexus_quotient7(x, y, r); return r;"),
        "sincos": ([f], f, f"*out = __builtin_cos{s}(x); return __builtin_sin{s}(x);"),
        "lgamma_r": ([f], "int", f"int sign; {f} r = {lgamma_r}(x, &sign); *out = sign; return r;"),
    }


def definitions(space):
    out = []
    for f in FLOATS:
        for name, (params, pointee, body) in scalars(f).items():
            args = ", ".join(f"{p} {'xy'[i]}" for i, p in enumerate(params))
            out.append(f"PLEXUS_DEF {f} {name}({args}, {space} {pointee}* out) {{ {body} }}\n")
            for n in VECTOR_WIDTHS:
                out.append(split_out(f, name, [(p, "xy"[i], "v") for i, p in enumerate(params)],
                                     pointee, space, n))
    return out


def generate():
    return (PRELUDE + "#if __OPENCL_C_VERSION__ >= 200\n" + "".join(definitions("")) + "#else\n" +
            "".join(line for space in NAMED_SPACES for line in definitions(space)) + "#endif\n")
