"""Geometric functions (OpenCL C 1.2 table 6.13) for float and double, scalars and vectors
of 2, 3 and 4: dot, cross, length, distance, normalize and float's fast_length,
fast_distance, fast_normalize (the same as the full-precision ones). Float lengths are
computed in double (no overflow or underflow); double lengths are rescaled by the largest
magnitude when the sum of squares would leave the exponent range."""
from common import vec

COMPONENTS = {1: [""], 2: [".x", ".y"], 3: [".x", ".y", ".z"], 4: [".x", ".y", ".z", ".w"]}


def forms(f, n):
    v = vec(f, n)
    c = COMPONENTS[n]
    s = "f" if f == "float" else ""
    dot = " + ".join(f"x{i} * y{i}" for i in c)
    out = [f"PLEXUS_DEF {f} dot({v} x, {v} y) {{ return {dot}; }}\n"]
    if f == "float":
        squares = " + ".join(f"(double)x{i} * (double)x{i}" for i in c)
        out.append(f"PLEXUS_DEF float length({v} x) {{ return (float)__builtin_sqrt({squares}); }}\n")
    else:
        largest = "__builtin_fabs(x" + c[0] + ")"
        for i in c[1:]:
            largest = f"__builtin_fmax({largest}, __builtin_fabs(x{i}))"
        out.append(
            f"PLEXUS_DEF double length({v} x) {{ double m = {largest}; "
            f"if (m == 0 || m == __builtin_inf()) return m; "
            f"if (m > 0x1p500 || m < 0x1p-500) {{ {v} y = x / m; return m * __builtin_sqrt(dot(y, y)); }} "
            f"return __builtin_sqrt(dot(x, x)); }}\n")
    out.append(f"PLEXUS_DEF {f} distance({v} x, {v} y) {{ return length(x - y); }}\n")
    # normalize: zeros stay; infinite elements count as +-1 and the finite ones as 0.
    any_inf = " || ".join(f"__builtin_isinf(x{i})" for i in c)
    all_zero = " && ".join(f"x{i} == 0" for i in c)
    units = ", ".join(f"__builtin_isinf(x{i}) ? __builtin_copysign{s}(1, x{i}) : "
                      f"__builtin_copysign{s}(0, x{i})" for i in c)
    out.append(f"PLEXUS_DEF {v} normalize({v} x) {{ if ({all_zero}) return x; "
               f"if ({any_inf}) x = ({v})({units}); return x / length(x); }}\n")
    if f == "float":
        out.append(f"PLEXUS_DEF float fast_length({v} x) {{ return length(x); }}\n")
        out.append(f"PLEXUS_DEF float fast_distance({v} x, {v} y) {{ return distance(x, y); }}\n")
        out.append(f"PLEXUS_DEF {v} fast_normalize({v} x) {{ return normalize(x); }}\n")
    if n in (3, 4):
        w = ", 0" if n == 4 else ""
        out.append(f"PLEXUS_DEF {v} cross({v} x, {v} y) {{ return ({v})(x.y * y.z - x.z * y.y, "
                   f"x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x{w}); }}\n")
    return out


def generate():
    return "".join(line for f in ("float", "double") for n in (1, 2, 3, 4) for line in forms(f, n))
