// Tiled single-precision matrix multiply C = alpha * A * B + beta * C (row-major), with
// local-memory tiles and a register block of 4 results per work-item.
#ifndef TS
#define TS 32
#endif
#define WPT 4
#define RTS (TS / WPT)

__kernel __attribute__((reqd_work_group_size(TS, RTS, 1)))
void sgemm_tiled(const int M, const int N, const int K, const float alpha,
                 __global const float* A, __global const float* B, const float beta,
                 __global float* C) {
  const int row = get_local_id(0);
  const int col = get_local_id(1);
  const int global_row = TS * get_group_id(0) + row;
  const int global_col = TS * get_group_id(1) + col;

  __local float a_tile[TS][TS];
  __local float b_tile[TS][TS];

  float acc[WPT];
  for (int w = 0; w < WPT; ++w) acc[w] = 0.0f;

  const int tiles = (K + TS - 1) / TS;
  for (int t = 0; t < tiles; ++t) {
    for (int w = 0; w < WPT; ++w) {
      const int tiled_row = TS * t + row;
      const int tiled_col = TS * t + col + w * RTS;
      a_tile[col + w * RTS][row] =
          (global_row < M && tiled_col < K) ? A[global_row * K + tiled_col] : 0.0f;
      b_tile[col + w * RTS][row] =
          (tiled_row < K && global_col + w * RTS < N) ? B[tiled_row * N + global_col + w * RTS]
                                                       : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      const float a = a_tile[k][row];
      for (int w = 0; w < WPT; ++w) acc[w] = fma(a, b_tile[col + w * RTS][k], acc[w]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int w = 0; w < WPT; ++w) {
    const int c = global_col + w * RTS;
    if (global_row < M && c < N) {
      const int i = global_row * N + c;
      C[i] = alpha * acc[w] + beta * C[i];
    }
  }
}
