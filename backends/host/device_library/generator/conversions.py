"""convert_<dest>[n][_sat][_rte|_rtz|_rtp|_rtn] for every pair of scalar types and width.

Scalars: integer to integer truncates or saturates; float to integer rounds (rint, trunc,
ceil, floor), then saturates (NaN gives 0); integer or double to a floating type rounds to
nearest and then steps one ulp (nextafter) when the exact comparison of the result with
the source says the mode wanted the other neighbour. Vectors: a plain
__builtin_convertvector where the C conversion is the mode's (integers, float to integer
toward zero, to floating types to nearest); to integers otherwise vector rounding and
selects (so the work-group loop stays vector code); to floating types in another rounding
mode, the scalar form on each half.
"""
from common import FLOATS, INTEGERS, SCALARS, VECTOR_WIDTHS, max_literal, min_literal, signed, \
    signed_of, split, value_bits, vec

MODES = ["", "_rte", "_rtz", "_rtp", "_rtn"]
FLOAT_ROUNDING = {"": "__builtin_trunc", "_rte": "__builtin_rint", "_rtz": "__builtin_trunc",
                  "_rtp": "__builtin_ceil", "_rtn": "__builtin_floor"}


def exact_in(source, dest):
    """Every value of integer or float `source` is exactly a `dest` value (a float dest)."""
    if source == dest or (source == "float" and dest == "double"):
        return True
    if source in FLOATS:
        return False
    return value_bits(source) <= (24 if dest == "float" else 53)


def native(source, dest, sat, mode):
    """The C conversion is what the function asks for."""
    if dest in INTEGERS:
        if source in INTEGERS:
            return not sat or (value_bits(source) <= value_bits(dest) and
                               (signed(dest) or not signed(source)))
        return not sat and mode in ("", "_rtz")
    return mode in ("", "_rte") or exact_in(source, dest)


def to_integer(source, dest, sat, mode):
    if source in INTEGERS:
        checks = []
        if signed(source) and (not signed(dest) or value_bits(dest) < value_bits(source)):
            checks.append(f"x < ({source}){min_literal(dest)} ? {min_literal(dest)}")
        if value_bits(dest) < value_bits(source):
            checks.append(f"x > ({source}){max_literal(dest)} ? {max_literal(dest)}")
        return " : ".join(checks + [f"({dest})x"])
    rounding = FLOAT_ROUNDING[mode] + ("f" if source == "float" else "")
    r = f"{rounding}(x)"
    if not sat:
        return f"({dest}){r}"
    low = "-" if signed(dest) else ""
    limit = f"0x1p{value_bits(dest)}" + ("f" if source == "float" else "")
    return (f"x != x ? 0 : {r} < {low}{limit if signed(dest) else '0'} ? {min_literal(dest)} : "
            f"{r} >= {limit} ? {max_literal(dest)} : ({dest}){r}")


def compare(source, dest):
    """Expressions below(f), above(f): the rounded f lies below or above the exact x."""
    if source == "double" or (source in ("int", "uint") and dest == "float"):
        return "(double)f < (double)x", "(double)f > (double)x"
    # long/ulong: f is an integer value; 2^63 (2^64) is past the largest x.
    limit = f"0x1p{value_bits(source)}" + ("f" if dest == "float" else "")
    return (f"(f < {limit} && ({source})f < x)", f"(f >= {limit} || ({source})f > x)")


def to_floating(source, dest, mode):
    below, above = compare(source, dest)
    suffix = "f" if dest == "float" else ""
    step = f"__builtin_nextafter{suffix}"
    huge = "__builtin_inff()" if dest == "float" else "__builtin_inf()"
    fixes = {
        "_rtz": f"if (x < 0 ? {below} : {above}) f = {step}(f, 0);",
        "_rtp": f"if ({below}) f = {step}(f, {huge});",
        "_rtn": f"if ({above}) f = {step}(f, -{huge});",
    }
    return f"{dest} f = ({dest})x; {fixes[mode]} return f;"


def scalar(source, dest, sat, mode):
    name = f"convert_{dest}{'_sat' if sat else ''}{mode}"
    if native(source, dest, sat, mode):
        body = f"return ({dest})x;"
    elif dest in INTEGERS:
        body = f"return {to_integer(source, dest, sat, mode)};"
    else:
        body = to_floating(source, dest, mode)
    return f"PLEXUS_DEF {dest} {name}({source} x) {{ {body} }}\n"


ELEMENTWISE = {"": "trunc", "_rte": "roundeven", "_rtz": "trunc", "_rtp": "ceil", "_rtn": "floor"}


def vector_to_integer(source, dest, sat, mode, n):
    """A body for every width: vector rounding (llvm.roundeven, floor, ...), the vector
    conversion, then the saturated lanes replaced (selects on comparison masks)."""
    d, mask = vec(dest, n), vec(signed_of(dest), n)
    lines = []
    value = "x"
    if source in FLOATS:
        lines.append(f"{vec(source, n)} r = __builtin_elementwise_{ELEMENTWISE[mode]}(x);")
        value = "r"
    lines.append(f"{d} v = __builtin_convertvector({value}, {d});")
    if sat:
        suffix = "f" if source == "float" else ""
        if source in FLOATS:
            low = f"-0x1p{value_bits(dest)}{suffix}" if signed(dest) else "0"
            bounds = [(f"r < {low}", min_literal(dest)),
                      (f"r >= 0x1p{value_bits(dest)}{suffix}", max_literal(dest)),
                      ("x != x", "0")]
        else:
            bounds = []
            if signed(source) and (not signed(dest) or value_bits(dest) < value_bits(source)):
                bounds.append((f"x < ({source}){min_literal(dest)}", min_literal(dest)))
            if value_bits(dest) < value_bits(source):
                bounds.append((f"x > ({source}){max_literal(dest)}", max_literal(dest)))
        for condition, limit in bounds:
            lines.append(f"v = __builtin_convertvector({condition}, {mask}) ? ({d})({limit}) : v;")
    lines.append("return v;")
    return " ".join(lines)


def vector(source, dest, sat, mode, n):
    name = f"convert_{vec(dest, n)}{'_sat' if sat else ''}{mode}"
    if native(source, dest, sat, mode):
        return (f"PLEXUS_DEF {vec(dest, n)} {name}({vec(source, n)} x) "
                f"{{ return __builtin_convertvector(x, {vec(dest, n)}); }}\n")
    if dest in INTEGERS:
        return (f"PLEXUS_DEF {vec(dest, n)} {name}({vec(source, n)} x) "
                f"{{ {vector_to_integer(source, dest, sat, mode, n)} }}\n")
    half = f"convert_{vec(dest, 1 if n in (2, 3) else n // 2)}{'_sat' if sat else ''}{mode}"
    return split(dest, name, [(source, "x", "v")], n, call=half)


def generate():
    out = []
    for dest in SCALARS:
        for source in SCALARS:
            for sat in ([False, True] if dest in INTEGERS else [False]):
                for mode in MODES:
                    out.append(scalar(source, dest, sat, mode))
                    out.extend(vector(source, dest, sat, mode, n) for n in VECTOR_WIDTHS)
    return "".join(out)
