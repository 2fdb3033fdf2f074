"""OpenCL C 2.0 work-group collective functions and the sub-group functions (cl_khr_subgroups,
cl_khr_subgroup_shuffle, cl_khr_subgroup_shuffle_relative), built as OpenCL C 2.0.

A work-group's work-items run as fibers on one thread (the host backend's FiberGroup), so
a collective is: a barrier (the previous collective's readers are done), each work-item
writes its value to its slot of the group's scratch (plexus_work_item_state::collective),
a barrier, the first work-item combines the slots in order of local linear id (into the
result slot, or in place for a scan), a barrier, each reads its result. Sub-groups are
runs of sub_group_size consecutive local linear ids; their functions do the same over
their own slots with the sub-group barrier (__plexus_sub_group_barrier), which waits for
the sub-group's work-items only. Scratch layout (8-byte slots): [0, n) the work-items'
values, n the work-group's result, n + 1 + s sub-group s's result."""

TYPES = ["int", "uint", "long", "ulong", "float", "double"]
SHUFFLE_TYPES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float",
                 "double"]
LARGEST = {"int": "INT_MAX", "uint": "UINT_MAX", "long": "LONG_MAX", "ulong": "ULONG_MAX",
           "float": "INFINITY", "double": "INFINITY"}
SMALLEST = {"int": "INT_MIN", "uint": "0", "long": "LONG_MIN", "ulong": "0",
            "float": "-INFINITY", "double": "-INFINITY"}

PRELUDE = """#include "work_item_state.h"

static size_t plexus_local_linear(plexus_state_pointer s) {
  return (s->local_id[2] * s->local_size[1] + s->local_id[1]) * s->local_size[0] +
         s->local_id[0];
}
static size_t plexus_group_count(plexus_state_pointer s) {
  return s->local_size[0] * s->local_size[1] * s->local_size[2];
}
static void plexus_group_sync(void) { barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }
static void plexus_sub_group_sync(plexus_state_pointer s) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __plexus_sub_group_barrier(s);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
// sub_group_size is a power of two: shifts and masks, which the work-group loop vectorises
// (a division by a value it does not know keeps the loop scalar).
static size_t plexus_sub_group_index(plexus_state_pointer s) {
  return plexus_local_linear(s) >> __builtin_ctzl(s->sub_group_size);
}
static size_t plexus_sub_group_lane(plexus_state_pointer s) {
  return plexus_local_linear(s) & (s->sub_group_size - 1);
}
// The calling work-item's sub-group: its first local linear id and its size.
static size_t plexus_sub_group_first(plexus_state_pointer s) {
  return plexus_local_linear(s) & ~(s->sub_group_size - 1);
}
static size_t plexus_sub_group_count(plexus_state_pointer s) {
  size_t first = plexus_sub_group_first(s), n = plexus_group_count(s);
  return n - first < s->sub_group_size ? n - first : s->sub_group_size;
}

PLEXUS_DEF uint get_sub_group_size(void) {
  return (uint)plexus_sub_group_count(__plexus_wi());
}
PLEXUS_DEF uint get_max_sub_group_size(void) {
  plexus_state_pointer s = __plexus_wi();
  size_t n = plexus_group_count(s);
  return (uint)(n < s->sub_group_size ? n : s->sub_group_size);
}
PLEXUS_DEF uint get_num_sub_groups(void) {
  plexus_state_pointer s = __plexus_wi();
  return (uint)((plexus_group_count(s) + s->sub_group_size - 1) >> __builtin_ctzl(s->sub_group_size));
}
PLEXUS_DEF uint get_enqueued_num_sub_groups(void) { return get_num_sub_groups(); }
PLEXUS_DEF uint get_sub_group_id(void) {
  plexus_state_pointer s = __plexus_wi();
  return (uint)plexus_sub_group_index(s);
}
PLEXUS_DEF uint get_sub_group_local_id(void) {
  plexus_state_pointer s = __plexus_wi();
  return (uint)plexus_sub_group_lane(s);
}
PLEXUS_DEF void sub_group_barrier(cl_mem_fence_flags flags) {
  plexus_sub_group_sync(__plexus_wi());
}
PLEXUS_DEF void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  plexus_sub_group_sync(__plexus_wi());
}
"""


def combine(op, t, a, b):
    if op == "add":
        return f"{a} + {b}"
    if t in ("float", "double"):
        return f"__builtin_f{op}{'f' if t == 'float' else ''}({a}, {b})"
    compare = "<" if op == "min" else ">"
    return f"({a} {compare} {b} ? {a} : {b})"


def identity(op, t):
    return {"add": f"({t})0", "min": LARGEST[t], "max": SMALLEST[t]}[op]


def scope_code(scope):
    """Declarations of: me (the caller's slot), first and count (the
    slots the scope combines), result (its result slot) and sync (its barrier)."""
    if scope == "work_group":
        return ("size_t me = plexus_local_linear(s), first = 0, count = plexus_group_count(s); "
                "size_t result = count; ", "plexus_group_sync();")
    return ("size_t me = plexus_local_linear(s), first = plexus_sub_group_first(s), "
            "count = plexus_sub_group_count(s); "
            "size_t result = plexus_group_count(s) + 1 + plexus_sub_group_index(s); ",
            "plexus_sub_group_sync(s);")


def collective(t, scope, name, params, body_after_write):
    """A function that writes x to the caller's slot, then runs body_after_write."""
    declarations, sync = scope_code(scope)
    args = ", ".join(f"{p} {n}" for p, n in params)
    return (f"PLEXUS_DEF {t} {scope}_{name}({args}) {{\n"
            f"  plexus_state_pointer s = __plexus_wi();\n"
            f"  __global ulong* v = (__global ulong*)s->collective;\n"
            f"  {declarations}\n"
            f"  {sync}\n  *(__global {t}*)(v + me) = x;\n  {sync}\n"
            f"{body_after_write(sync).replace('SLOT', f'*(__global {t}*)')}}}\n")


def reduce_body(op, t):
    def body(sync):
        return (f"  if (me == first) {{\n    {t} r = SLOT(v + first);\n"
                f"    for (size_t i = first + 1; i < first + count; ++i) r = "
                f"{combine(op, t, 'r', 'SLOT(v + i)')};\n    SLOT(v + result) = r;\n  }}\n"
                f"  {sync}\n  return SLOT(v + result);\n")
    return body


def scan_body(op, t, inclusive):
    def body(sync):
        if inclusive:
            loop = (f"    for (size_t i = first + 1; i < first + count; ++i) SLOT(v + i) = "
                    f"{combine(op, t, 'SLOT(v + i - 1)', 'SLOT(v + i)')};\n")
        else:
            loop = (f"    {t} r = {identity(op, t)};\n"
                    f"    for (size_t i = first; i < first + count; ++i) {{\n"
                    f"      {t} next = {combine(op, t, 'r', 'SLOT(v + i)')};\n"
                    f"      SLOT(v + i) = r;\n      r = next;\n    }}\n")
        return f"  if (me == first) {{\n{loop}  }}\n  {sync}\n  return SLOT(v + me);\n"
    return body


def read_slot(index):
    """Reads another work-item's slot of the same scope (an index outside it reads the
    caller's own: undefined in OpenCL, but never outside the scratch)."""
    def body(sync):
        return (f"  size_t k = {index};\n  return SLOT(v + (k < count ? first + k : me));\n")
    return body


def generate():
    out = [PRELUDE]
    for scope in ("work_group", "sub_group"):
        for t in TYPES:
            for op in ("add", "min", "max"):
                out.append(collective(t, scope, f"reduce_{op}", [(t, "x")], reduce_body(op, t)))
                out.append(collective(t, scope, f"scan_inclusive_{op}", [(t, "x")],
                                      scan_body(op, t, True)))
                out.append(collective(t, scope, f"scan_exclusive_{op}", [(t, "x")],
                                      scan_body(op, t, False)))
        # all and any: a reduction of the predicates' truth.
        for name, op in (("all", "min"), ("any", "max")):
            out.append(f"PLEXUS_DEF int {scope}_{name}(int predicate) {{\n"
                       f"  return {scope}_reduce_{op}(predicate != 0 ? 1 : 0);\n}}\n")
    for t in TYPES:
        # work_group_broadcast(x, local id) in 1, 2 and 3 dimensions.
        dims = [("size_t", "a")], [("size_t", "a"), ("size_t", "b")], \
            [("size_t", "a"), ("size_t", "b"), ("size_t", "c")]
        index = ["a", "a + b * s->local_size[0]",
                 "a + (b + c * s->local_size[1]) * s->local_size[0]"]
        for params, linear in zip(dims, index):
            out.append(collective(t, "work_group", "broadcast", [(t, "x")] + params,
                                  read_slot(linear)))
        out.append(collective(t, "sub_group", "broadcast", [(t, "x"), ("uint", "a")],
                              read_slot("a")))
    for t in SHUFFLE_TYPES:
        out.append(collective(t, "sub_group", "shuffle", [(t, "x"), ("uint", "a")],
                              read_slot("a")))
        out.append(collective(t, "sub_group", "shuffle_xor", [(t, "x"), ("uint", "a")],
                              read_slot("(me - first) ^ a")))
        out.append(collective(t, "sub_group", "shuffle_up", [(t, "x"), ("uint", "a")],
                              read_slot("(me - first) - a")))
        out.append(collective(t, "sub_group", "shuffle_down", [(t, "x"), ("uint", "a")],
                              read_slot("(me - first) + a")))
    return "".join(out)
