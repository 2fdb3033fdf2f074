// Tile kernels of the right-looking tiled Cholesky factorisation A = L * L^T (lower).
// The matrix is one row-major n x n buffer of `real`: double, or float with the build option
// -DPRECISION_SINGLE (`cholesky --precision single`; no fp64 needed then); a tile is
// TILE x TILE (a build option, -DTILE=...) and is named by its tile row and column. Only the
// lower triangle is read and written; each kernel touches exactly the tiles its task
// declares.
//
// Every product here is a dot product of two rows (C -= A * B^T with A and B row-major), so
// the contiguous dimension is the reduction. Two shapes, chosen by the host program with a
// build option (cholesky_shape.hpp says which kernels and launches each needs):
//
// - SHAPE_CPU (default): potrf, trsm, syrk and gemm of a tile, one launch each; no barriers,
//   no __local memory. A work-item owns a register block of the output and keeps one
//   real4 partial sum per output along the reduction: RB x CB blocks of 4 elements, loaded
//   once per step and used CB (or RB) times. Caches do the tiling. On the host backend a
//   barrier-free kernel runs as a plain loop over the group.
// - SHAPE_GPU: update, factor and solve, generic steps over absolute positions; gemm and
//   syrk are one update, potrf and trsm a chain of steps by panels of PB columns. update
//   stages BK-deep slices of both operands in __local memory and each of its GT x GT threads
//   computes a GW x GW register block of a GB x GB output block.
//
// Rows and columns past the tile's end (TILE not a multiple of a block) are clamped on load
// and never stored; reduction steps past it are a scalar tail (CPU) or zeros (GPU).

#if defined(PRECISION_SINGLE)
typedef float real;
typedef float4 real4;
#else
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double4 real4;
#endif

// Helpers are inlined everywhere: a call would pass __local pointers as generic ones (PTX).
#define INLINE static inline __attribute__((always_inline))

#define AT(row, col) a[(size_t)(row) * (size_t)n + (size_t)(col)]

#if !defined(SHAPE_GPU)
// ---------------------------------------------------------------------------------------
// CPU shape
#define RB 4  // rows of a work-item's block (gemm, syrk, trsm)
#define CB 2  // columns of a work-item's block (gemm, syrk; trsm solves 2 columns a step)

// Four consecutive elements, any alignment (vload4 without relying on the device library).
INLINE real4 load4(const __global real* p) { return (real4)(p[0], p[1], p[2], p[3]); }
INLINE real sum4(real4 v) { return (v.s0 + v.s1) + (v.s2 + v.s3); }

// C(r, c) -= sum_m X(r, m) * Y(c, m) over m < TILE for the RB x CB block at (r0, c0) of the
// output whose rows start at x (stride n) and columns' rows at y; `lower`: only c <= r.
INLINE void update_block(__global real* a, int n, size_t out, const __global real* x,
                         const __global real* y, int r0, int c0, int lower) {
  size_t xr[RB], yc[CB];
  #pragma unroll
  for (int q = 0; q < RB; ++q) xr[q] = (size_t)min(r0 + q, TILE - 1) * (size_t)n;
  #pragma unroll
  for (int p = 0; p < CB; ++p) yc[p] = (size_t)min(c0 + p, TILE - 1) * (size_t)n;
  real4 acc[RB][CB];
  #pragma unroll
  for (int q = 0; q < RB; ++q)
    #pragma unroll
    for (int p = 0; p < CB; ++p) acc[q][p] = (real4)(0);
  int m = 0;
  for (; m + 4 <= TILE; m += 4) {
    real4 xv[RB], yv[CB];
    #pragma unroll
    for (int q = 0; q < RB; ++q) xv[q] = load4(x + xr[q] + m);
    #pragma unroll
    for (int p = 0; p < CB; ++p) yv[p] = load4(y + yc[p] + m);
    #pragma unroll
    for (int q = 0; q < RB; ++q)
      #pragma unroll
      for (int p = 0; p < CB; ++p) acc[q][p] += xv[q] * yv[p];
  }
  real s[RB][CB];
  #pragma unroll
  for (int q = 0; q < RB; ++q)
    #pragma unroll
    for (int p = 0; p < CB; ++p) s[q][p] = sum4(acc[q][p]);
  for (; m < TILE; ++m)
    #pragma unroll
    for (int q = 0; q < RB; ++q)
      #pragma unroll
      for (int p = 0; p < CB; ++p) s[q][p] += x[xr[q] + m] * y[yc[p] + m];
  #pragma unroll
  for (int q = 0; q < RB; ++q)
    #pragma unroll
    for (int p = 0; p < CB; ++p) {
      const int r = r0 + q, c = c0 + p;
      if (r < TILE && c < TILE && (!lower || c <= r))
        a[out + (size_t)r * (size_t)n + (size_t)c] -= s[q][p];
    }
}

// sum_m x[m] * y[m] for m < len, two partial sums of 4.
INLINE real dot(const __global real* x, const __global real* y, int len) {
  real4 s0 = (real4)(0), s1 = (real4)(0);
  int m = 0;
  for (; m + 8 <= len; m += 8) {
    s0 += load4(x + m) * load4(y + m);
    s1 += load4(x + m + 4) * load4(y + m + 4);
  }
  real s = sum4(s0 + s1);
  for (; m < len; ++m) s += x[m] * y[m];
  return s;
}

// POTRF: factor the diagonal tile (k, k) in place, row by row (row r needs rows < r):
// L(r, c) = (A(r, c) - L(r, :c) . L(c, :c)) / L(c, c), L(r, r) = sqrt(A(r, r) - |L(r, :r)|^2).
// One work-item.
__kernel void potrf(__global real* a, int n, int k) {
  const int base = k * TILE;
  for (int r = 0; r < TILE; ++r) {
    __global real* row = &AT(base + r, base);
    for (int c = 0; c < r; ++c) {
      const __global real* lc = &AT(base + c, base);
      row[c] = (row[c] - dot(row, lc, c)) / lc[c];
    }
    row[r] = sqrt(row[r] - dot(row, row, r));
  }
}

// TRSM: tile (i, k) = tile (i, k) * L(k, k)^-T. Work-item g solves rows RB*g .. RB*g+RB-1,
// two columns a step: X(r, c) = (B(r, c) - X(r, :c) . L(c, :c)) / L(c, c).
__kernel void trsm(__global real* a, int n, int i, int k) {
  const int r0 = (int)get_global_id(0) * RB;
  const __global real* l = &AT(k * TILE, k * TILE);
  __global real* x = &AT(i * TILE, k * TILE);
  size_t xr[RB];
  #pragma unroll
  for (int q = 0; q < RB; ++q) xr[q] = (size_t)min(r0 + q, TILE - 1) * (size_t)n;
  for (int c = 0; c < TILE; c += 2) {
    const int c1 = min(c + 1, TILE - 1);  // the second column (== c on an odd last step)
    const __global real* l0 = l + (size_t)c * (size_t)n;
    const __global real* l1 = l + (size_t)c1 * (size_t)n;
    real4 acc0[RB], acc1[RB];
    #pragma unroll
    for (int q = 0; q < RB; ++q) acc0[q] = acc1[q] = (real4)(0);
    int m = 0;
    for (; m + 4 <= c; m += 4) {
      const real4 v0 = load4(l0 + m), v1 = load4(l1 + m);
      #pragma unroll
      for (int q = 0; q < RB; ++q) {
        const real4 xv = load4(x + xr[q] + m);
        acc0[q] += xv * v0;
        acc1[q] += xv * v1;
      }
    }
    real s0[RB], s1[RB];
    #pragma unroll
    for (int q = 0; q < RB; ++q) {
      s0[q] = sum4(acc0[q]);
      s1[q] = sum4(acc1[q]);
    }
    for (; m < c; ++m)
      #pragma unroll
      for (int q = 0; q < RB; ++q) {
        s0[q] += x[xr[q] + m] * l0[m];
        s1[q] += x[xr[q] + m] * l1[m];
      }
    #pragma unroll
    for (int q = 0; q < RB; ++q) {
      const real v = (x[xr[q] + c] - s0[q]) / l0[c];
      if (r0 + q < TILE) x[xr[q] + c] = v;
      if (c1 != c && r0 + q < TILE) x[xr[q] + c1] = (x[xr[q] + c1] - s1[q] - v * l1[c]) / l1[c1];
    }
  }
}

// SYRK: tile (i, i) -= tile (i, k) * tile (i, k)^T, lower triangle only. Work-item (x, y)
// owns rows RB*y.. and columns CB*x..; blocks wholly above the diagonal do nothing.
__kernel void syrk(__global real* a, int n, int i, int k) {
  const int c0 = (int)get_global_id(0) * CB, r0 = (int)get_global_id(1) * RB;
  if (c0 > r0 + RB - 1) return;
  const __global real* x = &AT(i * TILE, k * TILE);
  update_block(a, n, (size_t)(i * TILE) * (size_t)n + (size_t)(i * TILE), x, x, r0, c0, 1);
}

// GEMM: tile (i, j) -= tile (i, k) * tile (j, k)^T, for i > j. Work-item (x, y) owns rows
// RB*y.. and columns CB*x.. of the tile.
__kernel void gemm(__global real* a, int n, int i, int j, int k) {
  const int c0 = (int)get_global_id(0) * CB, r0 = (int)get_global_id(1) * RB;
  update_block(a, n, (size_t)(i * TILE) * (size_t)n + (size_t)(j * TILE), &AT(i * TILE, k * TILE),
               &AT(j * TILE, k * TILE), r0, c0, 0);
}

#else
// ---------------------------------------------------------------------------------------
// GPU shape: three generic steps over absolute positions in the matrix, so that every
// launch fills the GPU. gemm and syrk are one `update` each; potrf and trsm go by panels of
// PB columns (OpenClTiles says which steps a tile operation takes), each panel a `factor`
// (potrf only: the PB x PB diagonal block in one work-group), a `solve` of the rows below or
// beside it against that block (a thread a row, many groups) and an `update` of what lies
// right of the panel (the same kernel as gemm's). A potrf or trsm of a large tile thus runs
// as a chain of short launches, each wide, instead of one long launch of a few groups.
#ifndef GW
#define GW 4           // outputs per thread per side (update)
#endif
#ifndef PB
#define PB 64          // panel width of potrf and trsm
#endif
#define GT 16          // threads per side of an update work-group (CholeskyLaunch::update_side)
#define GB (GT * GW)   // output block side of an update work-group
#define BK 16          // reduction depth staged per step
#define GS (GB + 1)    // __local row stride (a pad against bank conflicts)
#define PS (PB + 1)    // the same for a PB x PB block

// UPDATE: A(r0 + r, c0 + c) -= sum_{m < depth} A(r0 + r, d0 + m) * A(c0 + c, d0 + m) for
// r < rows, c < cols (`lower`: only c <= r, with r0 == c0); GB x GB outputs a work-group,
// operands staged BK columns at a time in __local memory (coalesced loads, transposed so a
// thread reads consecutive entries), GW x GW outputs a thread. The depth columns never
// overlap the output's: callers update right of (or below) what they read.
__kernel void update(__global real* a, int n, int r0, int c0, int rows, int cols, int d0,
                     int depth, int lower) {
  __local real xs[BK * GS], ys[BK * GS];
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1), tid = ty * GT + tx;
  const int br = (int)get_group_id(1) * GB, bc = (int)get_group_id(0) * GB;
  if (lower && bc > br + GB - 1) return;  // the whole group: no barrier reached by anyone
  real acc[GW][GW];
  #pragma unroll
  for (int q = 0; q < GW; ++q)
    #pragma unroll
    for (int p = 0; p < GW; ++p) acc[q][p] = 0;
  for (int m0 = 0; m0 < depth; m0 += BK) {
    // GB rows x BK columns of each operand; consecutive threads read consecutive columns.
    // (e - row * BK, not e % BK: LLVM freezes a divided value used by / and %.)
    for (int e = tid; e < GB * BK; e += GT * GT) {
      const int row = e / BK, col = e - row * BK, m = m0 + col;
      const size_t mc = (size_t)(d0 + min(m, depth - 1));
      const size_t xo = (size_t)(r0 + min(br + row, rows - 1)) * (size_t)n + mc;
      const size_t yo = (size_t)(c0 + min(bc + row, cols - 1)) * (size_t)n + mc;
      xs[col * GS + row] = m < depth ? a[xo] : (real)0;
      ys[col * GS + row] = m < depth ? a[yo] : (real)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      real xv[GW], yv[GW];
      #pragma unroll
      for (int q = 0; q < GW; ++q) xv[q] = xs[kk * GS + ty + q * GT];
      #pragma unroll
      for (int p = 0; p < GW; ++p) yv[p] = ys[kk * GS + tx + p * GT];
      #pragma unroll
      for (int q = 0; q < GW; ++q)
        #pragma unroll
        for (int p = 0; p < GW; ++p) acc[q][p] = fma(xv[q], yv[p], acc[q][p]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  #pragma unroll
  for (int q = 0; q < GW; ++q)
    #pragma unroll
    for (int p = 0; p < GW; ++p) {
      const int r = br + ty + q * GT, c = bc + tx + p * GT;
      if (r < rows && c < cols && (!lower || c <= r))
        a[(size_t)(r0 + r) * (size_t)n + (size_t)(c0 + c)] -= acc[q][p];
    }
}

// Stages the w x w diagonal block at (c, c) in ls (stride PS), padded to PB x PB with the
// identity; every thread of the group takes part (consecutive threads, consecutive columns).
INLINE void stage_diagonal(const __global real* a, int n, int c, int w, __local real* ls) {
  for (int e = (int)get_local_id(0); e < PB * PB; e += (int)get_local_size(0)) {
    const int r = e / PB, col = e - r * PB;  // (no %: see update)
    ls[r * PS + col] = r < w && col < w ? a[(size_t)(c + r) * (size_t)n + (size_t)(c + col)]
                                        : (real)(r == col ? 1 : 0);
  }
}

// FACTOR: the w x w diagonal block at (c, c) := its Cholesky factor (lower), in one
// work-group of PB threads, thread t owning row t, right-looking column by column in __local
// memory.
__kernel void factor(__global real* a, int n, int c, int w) {
  __local real ls[PB * PS];
  const int t = (int)get_local_id(0);
  stage_diagonal(a, n, c, w, ls);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < w; ++j) {
    if (t == j) ls[j * PS + j] = sqrt(ls[j * PS + j]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t > j && t < w) ls[t * PS + j] /= ls[j * PS + j];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t > j && t < w)
      for (int c2 = j + 1; c2 <= t; ++c2) ls[t * PS + c2] -= ls[t * PS + j] * ls[c2 * PS + j];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int e = t; e < PB * PB; e += (int)get_local_size(0)) {
    const int r = e / PB, col = e - r * PB;
    if (r < w && col <= r) a[(size_t)(c + r) * (size_t)n + (size_t)(c + col)] = ls[r * PS + col];
  }
}

// SOLVE: rows r0 .. r0 + rows - 1 at columns c .. c + w - 1 := themselves * L^-T, L the
// factored w x w diagonal block at (c, c) staged in __local memory; a thread a row, its w
// entries in registers (forward substitution).
__kernel void solve(__global real* a, int n, int c, int w, int r0, int rows) {
  __local real ls[PB * PS];
  stage_diagonal(a, n, c, w, ls);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int g = (int)get_global_id(0);
  __global real* row = a + (size_t)(r0 + min(g, rows - 1)) * (size_t)n + (size_t)c;
  real x[PB];
  #pragma unroll
  for (int j = 0; j < PB; ++j) x[j] = j < w ? row[j] : (real)0;
  #pragma unroll
  for (int j = 0; j < PB; ++j) {
    real v = x[j];
    #pragma unroll
    for (int m = 0; m < j; ++m) v = fma(-x[m], ls[j * PS + m], v);
    x[j] = v / ls[j * PS + j];
  }
  if (g < rows)
    #pragma unroll
    for (int j = 0; j < PB; ++j)
      if (j < w) row[j] = x[j];
}
#endif

// RESIDENT: does nothing; a task of it has its accessor's data made valid on the device
// (the benchmarks' "data already on the device").
__kernel void resident(__global real* a) { (void)a; }
