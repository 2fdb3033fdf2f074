"""Integer functions (OpenCL C 1.2 table 6.10, with 2.0's ctz) for char ... ulong and
their vectors: abs abs_diff add_sat hadd rhadd clamp clz ctz mad_hi mad_sat max min
mul_hi rotate sub_sat upsample popcount mad24 mul24 (the vector-scalar forms of min, max
and clamp included)."""
from common import BITS, INTEGERS, VECTOR_WIDTHS, WIDTHS, max_literal, min_literal, signed, \
    split, unsigned_of, vec


def wide(t):
    """A type that holds the product of two t (or __int128 for 64-bit t)."""
    if BITS[t] == 64:
        return "__int128" if signed(t) else "unsigned __int128"
    return "long" if signed(t) else "ulong"


def bodies(t):
    u, bits, lo, hi = unsigned_of(t), BITS[t], min_literal(t), max_literal(t)
    builtin = "l" if bits == 64 else ""
    as_uint = f"({'ulong' if bits == 64 else 'uint'})({u})"
    saturate_add = f"x < 0 ? {lo} : {hi}" if signed(t) else hi
    saturate_sub = f"x < 0 ? {lo} : {hi}" if signed(t) else "0"
    clamp_wide = f"r < {lo} ? {lo} : r > {hi} ? {hi} : ({t})r"
    return {
        # name: (return type, parameter types, body)
        "abs": (u, [t], f"return x < 0 ? ({u})(-({u})x) : ({u})x;" if signed(t)
                else "return x;"),
        "abs_diff": (u, [t, t], f"return x > y ? ({u})(({u})x - ({u})y) : ({u})(({u})y - ({u})x);"),
        "add_sat": (t, [t, t], f"{t} r; if (__builtin_add_overflow(x, y, &r)) r = {saturate_add}; return r;"),
        "sub_sat": (t, [t, t], f"{t} r; if (__builtin_sub_overflow(x, y, &r)) r = {saturate_sub}; return r;"),
        "clz": (t, [t], f"return x == 0 ? {bits} : ({t})(__builtin_clz{builtin}({as_uint}x) - "
                        f"{(64 if bits == 64 else 32) - bits});"),
        "ctz": (t, [t], f"return x == 0 ? {bits} : ({t})__builtin_ctz{builtin}({as_uint}x);"),
        "popcount": (t, [t], f"return ({t})__builtin_popcount{builtin}({as_uint}x);"),
        "mul_hi": (t, [t, t], f"return ({t})((({wide(t)})x * ({wide(t)})y) >> {bits});"),
        "mad_hi": (t, [t, t, t], f"return ({t})(mul_hi(x, y) + z);"),
        "mad_sat": (t, [t, t, t], f"{wide(t)} r = ({wide(t)})x * ({wide(t)})y + z; return {clamp_wide};"
                    if signed(t) else f"{wide(t)} r = ({wide(t)})x * ({wide(t)})y + z; "
                                      f"return r > {hi} ? {hi} : ({t})r;"),
        "rotate": (t, [t, t], f"{u} v = ({u})x; uint s = (uint)({u})y & {bits - 1}; "
                              f"return ({t})(({u})(v << s) | ({u})(v >> (({bits} - s) & {bits - 1})));"),
    }


# Bodies valid for every width (OpenCL C vector operators).
GENERIC = {
    "min": (["T", "T"], "return y < x ? y : x;"),
    "max": (["T", "T"], "return x < y ? y : x;"),
    "hadd": (["T", "T"], "return (x >> 1) + (y >> 1) + (x & y & (T)1);"),
    "rhadd": (["T", "T"], "return (x >> 1) + (y >> 1) + ((x | y) & (T)1);"),
}
NAMES = "xyz"


def definition(ret, name, params, body):
    args = ", ".join(f"{p} {NAMES[i]}" for i, p in enumerate(params))
    return f"PLEXUS_DEF {ret} {name}({args}) {{ {body} }}\n"


def generate():
    out = []
    for t in INTEGERS:
        for name, (ret, params, body) in bodies(t).items():
            out.append(definition(ret, name, params, body))
            for n in VECTOR_WIDTHS:
                out.append(split(ret, name, [(p, NAMES[i], "v") for i, p in enumerate(params)], n))
        for n in WIDTHS:
            v = vec(t, n)
            for name, (params, body) in GENERIC.items():
                out.append(definition(v, name, [v] * len(params), body.replace("(T)", f"({t})")))
            out.append(definition(v, "clamp", [v, v, v], "return min(max(x, y), z);"))
            if n > 1:  # f(vector, scalar) forms
                out.append(definition(v, "min", [v, t], f"return min(x, ({v})(y));"))
                out.append(definition(v, "max", [v, t], f"return max(x, ({v})(y));"))
                out.append(definition(v, "clamp", [v, t, t], f"return clamp(x, ({v})(y), ({v})(z));"))
    # upsample(hi, lo): twice the width, hi signed or not, lo unsigned.
    for t, w in (("char", "short"), ("uchar", "ushort"), ("short", "int"), ("ushort", "uint"),
                 ("int", "long"), ("uint", "ulong")):
        uw, u = unsigned_of(w), unsigned_of(t)
        out.append(definition(w, "upsample", [t, u],
                              f"return ({w})((({uw})({w})x << {BITS[t]}) | ({uw})y);"))
        for n in VECTOR_WIDTHS:
            out.append(split(w, "upsample", [(t, "x", "v"), (u, "y", "v")], n))
    for t in ("int", "uint"):
        out.append(definition(t, "mul24", [t, t], f"return ({t})((uint)x * (uint)y);"))
        out.append(definition(t, "mad24", [t, t, t], f"return ({t})((uint)x * (uint)y + (uint)z);"))
        for n in VECTOR_WIDTHS:
            out.append(split(t, "mul24", [(t, "x", "v"), (t, "y", "v")], n))
            out.append(split(t, "mad24", [(t, "x", "v"), (t, "y", "v"), (t, "z", "v")], n))
    return "".join(out)
