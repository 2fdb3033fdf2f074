// A 2D stencil with barriers and two __local arguments, and a fill kernel: PoCL input shapes
// (bench/pocl/spir_input.sh).
__kernel void fill(__global float* out, float v) { out[get_global_id(0)] = v * (float)get_global_id(0); }
// 2D 5-point stencil: a (T+2)^2 tile with halo in one __local argument, the row sums in another.
__kernel void stencil2d(__global const float* in, __global float* out, __local float* tile,
                        __local float* partial, int w, int h) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int tw = get_local_size(0) + 2;
  for (int yy = ly; yy < get_local_size(1) + 2; yy += get_local_size(1))
    for (int xx = lx; xx < tw; xx += get_local_size(0)) {
      int gx = get_group_id(0) * get_local_size(0) + xx - 1, gy = get_group_id(1) * get_local_size(1) + yy - 1;
      tile[yy * tw + xx] = (gx >= 0 && gx < w && gy >= 0 && gy < h) ? in[gy * w + gx] : 0.0f;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  const float v = 0.2f * (tile[(ly + 1) * tw + lx + 1] + tile[ly * tw + lx + 1] + tile[(ly + 2) * tw + lx + 1] +
                          tile[(ly + 1) * tw + lx] + tile[(ly + 1) * tw + lx + 2]);
  partial[ly * get_local_size(0) + lx] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lx < s) partial[ly * get_local_size(0) + lx] += partial[ly * get_local_size(0) + lx + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[y * w + x] = v + 0.0f * partial[ly * get_local_size(0)];
}
