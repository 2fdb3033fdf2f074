// Tile kernels of the right-looking tiled Cholesky factorisation A = L * L^T (lower).
// The matrix is one row-major n x n buffer of doubles; a tile is TILE x TILE (a build
// option, -DTILE=...) and is named by its tile row and column. Only the lower triangle is
// read and written; each kernel touches exactly the tiles its task declares.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define AT(row, col) a[(size_t)(row) * (size_t)n + (size_t)(col)]

// POTRF: factor the diagonal tile (k, k) in place. One work-group of TILE work-items;
// work-item r owns row r of the tile.
__kernel void potrf(__global double* a, int n, int k) {
  const int r = (int)get_local_id(0);
  const int base = k * TILE;
  for (int j = 0; j < TILE; ++j) {
    if (r == j) AT(base + j, base + j) = sqrt(AT(base + j, base + j));
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (r > j) AT(base + r, base + j) /= AT(base + j, base + j);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (r > j) {
      const double lrj = AT(base + r, base + j);
      for (int c = j + 1; c <= r; ++c) AT(base + r, base + c) -= lrj * AT(base + c, base + j);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}

// TRSM: tile (i, k) = tile (i, k) * L(k, k)^-T. Work-item r solves row r of the tile.
__kernel void trsm(__global double* a, int n, int i, int k) {
  const int r = (int)get_global_id(0);
  const int row = i * TILE + r;
  const int diag = k * TILE;
  for (int c = 0; c < TILE; ++c) {
    double x = AT(row, diag + c);
    for (int m = 0; m < c; ++m) x -= AT(row, diag + m) * AT(diag + c, diag + m);
    AT(row, diag + c) = x / AT(diag + c, diag + c);
  }
}

// SYRK: tile (i, i) -= tile (i, k) * tile (i, k)^T, lower triangle only.
__kernel void syrk(__global double* a, int n, int i, int k) {
  const int r = (int)get_global_id(0);
  const int c = (int)get_global_id(1);
  if (c > r) return;
  const int row = i * TILE + r, col = i * TILE + c, inner = k * TILE;
  double sum = 0.0;
  for (int m = 0; m < TILE; ++m) sum += AT(row, inner + m) * AT(col, inner + m);
  AT(row, col) -= sum;
}

// GEMM: tile (i, j) -= tile (i, k) * tile (j, k)^T, for i > j.
__kernel void gemm(__global double* a, int n, int i, int j, int k) {
  const int r = (int)get_global_id(0);
  const int c = (int)get_global_id(1);
  const int row = i * TILE + r, col = j * TILE + c, inner = k * TILE;
  double sum = 0.0;
  for (int m = 0; m < TILE; ++m) sum += AT(row, inner + m) * AT(col, inner + m);
  AT(row, col) -= sum;
}
