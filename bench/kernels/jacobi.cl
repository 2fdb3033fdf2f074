// One Jacobi sweep of the 2D Laplace equation, with a residual per work-group.
#include "grid.h"

#ifndef TILE
#define TILE 16
#endif

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void jacobi_step(grid_t g, __global const float* in, __global float* out,
                 __global float* group_residual, __local float* scratch) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int lx = get_local_id(0), ly = get_local_id(1);
  float change = 0.0f;
  if (x < g.width && y < g.height) {
    const int i = grid_index(g, x, y);
    if (grid_interior(g, x, y)) {
      const float next = 0.25f * (in[grid_index(g, x - 1, y)] + in[grid_index(g, x + 1, y)] +
                                  in[grid_index(g, x, y - 1)] + in[grid_index(g, x, y + 1)]);
      change = fabs(next - in[i]);
      out[i] = next;
    } else {
      out[i] = in[i];
    }
  }
  const int l = ly * TILE + lx;
  scratch[l] = change;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
    if (l < stride) scratch[l] = fmax(scratch[l], scratch[l + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) group_residual[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = scratch[0];
}
