"""Async copies and prefetch (OpenCL C 1.2 section 6.12.10) for every type and width:
the work-items of the group copy interleaved elements (each by its local linear id), and
wait_group_events is a work-group barrier, after which the whole copy is visible.
prefetch does nothing (the data is in host memory already)."""
from common import SCALARS, WIDTHS, vec

PRELUDE = """static size_t plexus_local_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
"""
COPY = """PLEXUS_DEF event_t async_work_group_copy({d} {v}* dst, const {s} {v}* src, size_t n, event_t e) {{
  size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);
  for (size_t i = plexus_local_linear_id(); i < n; i += step) dst[i] = src[i];
  return e;
}}
PLEXUS_DEF event_t async_work_group_strided_copy({d} {v}* dst, const {s} {v}* src, size_t n, size_t stride, event_t e) {{
  size_t step = get_local_size(0) * get_local_size(1) * get_local_size(2);
  for (size_t i = plexus_local_linear_id(); i < n; i += step) dst[i{ds}] = src[i{ss}];
  return e;
}}
"""


def generate():
    # event_t* is generic in 2.0 and private in 1.2: defined by both compiles.
    out = [PRELUDE, "PLEXUS_DEF void wait_group_events(int n, event_t* events) "
                    "{ barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n"
                    "#if __OPENCL_C_VERSION__ < 200\n"]
    for t in SCALARS:
        for n in WIDTHS:
            v = vec(t, n)
            out.append(COPY.format(d="__local", s="__global", v=v, ds="", ss=" * stride"))
            out.append(COPY.format(d="__global", s="__local", v=v, ds=" * stride", ss=""))
            out.append(f"PLEXUS_DEF void prefetch(const __global {v}* p, size_t n) {{}}\n")
    out.append("#endif\n")
    return "".join(out)
