"""Relational functions (OpenCL C 1.2 table 6.14): the comparisons and classifications of
float and double (int for scalars, -1/0 in intn/longn for vectors), any/all, bitselect and
select for every type and width."""
from common import BITS, FLOATS, INTEGERS, SCALARS, VECTOR_WIDTHS, WIDTHS, signed, signed_of, \
    unsigned_of, vec

# The bodies hold for scalars (1/0) and vectors (-1/0) alike; A is the float's bits as its
# unsigned integer type, less the sign.
COMPARISONS = {
    "isequal": "x == y", "isnotequal": "x != y", "isgreater": "x > y",
    "isgreaterequal": "x >= y", "isless": "x < y", "islessequal": "x <= y",
    "islessgreater": "(x < y) || (x > y)", "isordered": "(x == x) && (y == y)",
    "isunordered": "(x != x) || (y != y)",
}
CLASSES = {
    "isfinite": "A < INF", "isinf": "A == INF", "isnan": "A > INF",
    "isnormal": "(A >= MIN) && (A < INF)", "signbit": "as_S(x) < 0",
}
BITS_OF = {"float": ("0x7fffffffU", "0x7f800000U", "0x00800000U"),
           "double": ("0x7fffffffffffffffUL", "0x7ff0000000000000UL", "0x0010000000000000UL")}


def relational(f, n):
    out = []
    v, r = vec(f, n), ("int" if n == 1 else vec(signed_of(f), n))
    u, s = vec(unsigned_of(f), n), vec(signed_of(f), n)
    for name, body in COMPARISONS.items():
        out.append(f"PLEXUS_DEF {r} {name}({v} x, {v} y) {{ return {body}; }}\n")
    mask, inf, smallest = BITS_OF[f]
    for name, body in CLASSES.items():
        body = (body.replace("A", f"(as_{u}(x) & {mask})").replace("INF", inf)
                .replace("MIN", smallest).replace("as_S", f"as_{s}"))
        out.append(f"PLEXUS_DEF {r} {name}({v} x) {{ return {body}; }}\n")
    return out


def any_all(t, n):
    v = vec(t, n)
    if n == 1:
        return [f"PLEXUS_DEF int any({v} x) {{ return x < 0; }}\n",
                f"PLEXUS_DEF int all({v} x) {{ return x < 0; }}\n"]
    parts = ["x.x", "x.y"] if n == 2 else ["x.x", "x.y", "x.z"] if n == 3 else ["x.lo", "x.hi"]
    return [f"PLEXUS_DEF int {name}({v} x) {{ return {op.join(f'{name}({p})' for p in parts)}; }}\n"
            for name, op in (("any", " | "), ("all", " & "))]


def selects(t, n):
    v = vec(t, n)
    out = []
    if t in FLOATS:
        u = vec(unsigned_of(t), n)
        out.append(f"PLEXUS_DEF {v} bitselect({v} a, {v} b, {v} c) {{ return as_{v}("
                   f"(as_{u}(a) & ~as_{u}(c)) | (as_{u}(b) & as_{u}(c))); }}\n")
    else:
        out.append(f"PLEXUS_DEF {v} bitselect({v} a, {v} b, {v} c) "
                   f"{{ return (a & ~c) | (b & c); }}\n")
    for c in (signed_of(t) if t in FLOATS else (t if signed(t) else signed_of(t)),
              unsigned_of(t)):
        cv = vec(c, n)
        if n == 1:
            out.append(f"PLEXUS_DEF {v} select({v} a, {v} b, {cv} c) {{ return c ? b : a; }}\n")
        else:
            sv = vec(signed_of(c), n)
            out.append(f"PLEXUS_DEF {v} select({v} a, {v} b, {cv} c) "
                       f"{{ return as_{sv}(c) < ({signed_of(c)})0 ? b : a; }}\n")
    return out


def generate():
    out = []
    for n in WIDTHS:
        for f in FLOATS:
            out.extend(relational(f, n))
        for t in INTEGERS:
            if signed(t):
                out.extend(any_all(t, n))
        for t in SCALARS:
            out.extend(selects(t, n))
    return "".join(out)
