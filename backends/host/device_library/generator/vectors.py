"""Vector data load and store (OpenCL C 1.2 section 6.12.7): vloadn, vstoren,
vload_half[n], vloada_halfn, vstore_half[n] and vstorea_halfn with their rounding modes,
for every address space (compiled as 1.2 for the named spaces and as 2.0 for the generic
one); and shuffle/shuffle2 (6.12.12).

Halves are converted in software (bit operations, no F16C): double to half rounds once,
in the mode asked (float goes through double exactly)."""
from common import NAMED_SPACES, SCALARS, VECTOR_WIDTHS, unsigned_of, vec

HALF = """
// Half bits to float: exact.
static float plexus_half_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) return as_float(sign | as_uint((float)m * 0x1p-24f));
  if (e == 31) return as_float(sign | 0x7f800000U | (m << 13));
  return as_float(sign | ((e + 112) << 23) | (m << 13));
}
// x rounded to half in `mode` (0 to nearest even, 1 toward zero, 2 up, 3 down).
static ushort plexus_half_bits(double x, int mode) {
  ulong bits = as_ulong(x);
  ushort sign = (ushort)((bits >> 48) & 0x8000);
  ulong magnitude = bits & 0x7fffffffffffffffUL;
  if (magnitude > 0x7ff0000000000000UL) return sign | 0x7e00 | (ushort)((bits >> 42) & 0x1ff);
  int negative = sign != 0;
  // Past the largest half (65504): infinity, or the largest half when the mode rounds
  // toward it.
  ushort overflow = (mode == 1 || (mode == 2 && negative) || (mode == 3 && !negative))
                        ? (ushort)(sign | 0x7bff) : (ushort)(sign | 0x7c00);
  if (magnitude == 0x7ff0000000000000UL) return sign | 0x7c00;
  int e = (int)(magnitude >> 52) - 1023;
  if (e > 15) return overflow;
  if (e < -14) e = -14;  // subnormal halves: the unit is 2^-24
  double scaled = as_double(magnitude) * as_double((ulong)(1023 + 10 - e) << 52);
  double whole = __builtin_trunc(scaled), fraction = scaled - whole;
  ulong t = (ulong)whole;
  if (mode == 0 ? (fraction > 0.5 || (fraction == 0.5 && (t & 1))) :
      mode == 2 ? (fraction > 0 && !negative) : mode == 3 ? (fraction > 0 && negative) : 0)
    ++t;
  ulong result = ((ulong)(e + 14) << 10) + t;  // t reaching 2048 (1024) carries into e
  if (e == -14 && t < 1024) result = t;
  return result >= 0x7c00 ? overflow : (ushort)(sign | result);
}
"""
MODES = {"": 0, "_rte": 0, "_rtz": 1, "_rtp": 2, "_rtn": 3}


def loads_stores(space, generic):
    """Every vload/vstore for pointers in `space` ("" is generic)."""
    out = []
    const_spaces = [space] + (["__constant"] if not generic and space == "__global" else [])
    for t in SCALARS:
        for n in VECTOR_WIDTHS:
            v = vec(t, n)
            elements = ", ".join(f"p[o + {i}]" for i in range(n))
            for cs in const_spaces:
                out.append(f"PLEXUS_DEF {v} vload{n}(size_t offset, const {cs} {t}* p) "
                           f"{{ size_t o = offset * {n}; return ({v})({elements}); }}\n")
            stores = " ".join(f"p[o + {i}] = data.s{i:x};" for i in range(n))
            out.append(f"PLEXUS_DEF void vstore{n}({v} data, size_t offset, {space} {t}* p) "
                       f"{{ size_t o = offset * {n}; {stores} }}\n")
    for n in [1] + VECTOR_WIDTHS:
        suffix = "" if n == 1 else str(n)
        v = vec("float", n)
        for aligned in (False, True):
            if aligned and n == 1:
                continue
            a = "a" if aligned else ""
            stride = 4 if (aligned and n == 3) else n
            if n == 1:
                value = "plexus_half_to_float(((const SPACE ushort*)p)[offset])"
            else:
                value = f"({v})(" + ", ".join(
                    f"plexus_half_to_float(((const SPACE ushort*)p)[offset * {stride} + {i}])"
                    for i in range(n)) + ")"
            for cs in const_spaces:
                out.append(f"PLEXUS_DEF {v} vload{a}_half{suffix}(size_t offset, const {cs} half* p) "
                           f"{{ return {value.replace('SPACE', cs)}; }}\n")
            for source in ("float", "double"):
                sv = vec(source, n)
                for mode, code in MODES.items():
                    if n == 1:
                        body = f"((SPACE ushort*)p)[offset] = plexus_half_bits(data, {code});"
                    else:
                        body = " ".join(
                            f"((SPACE ushort*)p)[offset * {stride} + {i}] = "
                            f"plexus_half_bits(data.s{i:x}, {code});" for i in range(n))
                    out.append(f"PLEXUS_DEF void vstore{a}_half{suffix}{mode}({sv} data, size_t offset, "
                               f"{space} half* p) {{ {body.replace('SPACE', space)} }}\n")
    return out


def shuffles():
    out = []
    for t in SCALARS:
        u = unsigned_of(t)
        for n in (2, 4, 8, 16):
            for m in (2, 4, 8, 16):
                r, mask = vec(t, m), vec(u, m)
                out.append(f"PLEXUS_DEF {r} shuffle({vec(t, n)} x, {mask} mask) {{ {r} r; "
                           f"for (int i = 0; i < {m}; ++i) r[i] = x[mask[i] & {n - 1}]; return r; }}\n")
                out.append(f"PLEXUS_DEF {r} shuffle2({vec(t, n)} x, {vec(t, n)} y, {mask} mask) {{ "
                           f"{r} r; for (int i = 0; i < {m}; ++i) {{ uint k = mask[i] & {2 * n - 1}; "
                           f"r[i] = k < {n} ? x[k] : y[k - {n}]; }} return r; }}\n")
    return out


def generate():
    named = [line for space in NAMED_SPACES for line in loads_stores(space, False)]
    return (HALF + "#if __OPENCL_C_VERSION__ >= 200\n" + "".join(loads_stores("", True)) +
            "#else\n" + "".join(named) + "".join(shuffles()) + "#endif\n")
