// Tile kernels of the right-looking tiled Cholesky factorisation A = L * L^T (lower).
// The matrix is one row-major n x n buffer of doubles; a tile is TILE x TILE (a build
// option, -DTILE=...) and is named by its tile row and column. Only the lower triangle is
// read and written; each kernel touches exactly the tiles its task declares.
//
// Every product here is a dot product of two rows (C -= A * B^T with A and B row-major), so
// the contiguous dimension is the reduction. Two shapes of the same four kernels, chosen by
// the host program with a build option (cholesky_shape.hpp says which launch each needs):
//
// - SHAPE_CPU (default): no barriers, no __local memory. A work-item owns a register block of
//   the output and keeps one double4 partial sum per output along the reduction: RB x CB
//   blocks of 4 doubles, loaded once per step and used CB (or RB) times. Caches do the
//   tiling. On the host backend a barrier-free kernel runs as a plain loop over the group.
// - SHAPE_GPU: a work-group stages BK-deep slices of both operands in __local memory
//   (coalesced loads, transposed so a thread reads consecutive entries) and each of its
//   GT x GT threads computes a GW x GW register block of a GB x GB output block; trsm and
//   potrf stage the triangular factor's blocks in __local memory the same way.
//
// Rows and columns past the tile's end (TILE not a multiple of a block) are clamped on load
// and never stored; reduction steps past it are a scalar tail (CPU) or zeros (GPU).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Helpers are inlined everywhere: a call would pass __local pointers as generic ones (PTX).
#define INLINE static inline __attribute__((always_inline))

#define AT(row, col) a[(size_t)(row) * (size_t)n + (size_t)(col)]

#if !defined(SHAPE_GPU)
// ---------------------------------------------------------------------------------------
// CPU shape
#define RB 4  // rows of a work-item's block (gemm, syrk, trsm)
#define CB 2  // columns of a work-item's block (gemm, syrk; trsm solves 2 columns a step)

// Four consecutive doubles, any alignment (vload4 without relying on the device library).
INLINE double4 load4(const __global double* p) { return (double4)(p[0], p[1], p[2], p[3]); }
INLINE double sum4(double4 v) { return (v.s0 + v.s1) + (v.s2 + v.s3); }

// C(r, c) -= sum_m X(r, m) * Y(c, m) over m < TILE for the RB x CB block at (r0, c0) of the
// output whose rows start at x (stride n) and columns' rows at y; `lower`: only c <= r.
INLINE void update_block(__global double* a, int n, size_t out, const __global double* x,
                         const __global double* y, int r0, int c0, int lower) {
  size_t xr[RB], yc[CB];
  #pragma unroll
  for (int q = 0; q < RB; ++q) xr[q] = (size_t)min(r0 + q, TILE - 1) * (size_t)n;
  #pragma unroll
  for (int p = 0; p < CB; ++p) yc[p] = (size_t)min(c0 + p, TILE - 1) * (size_t)n;
  double4 acc[RB][CB];
  #pragma unroll
  for (int q = 0; q < RB; ++q)
    #pragma unroll
    for (int p = 0; p < CB; ++p) acc[q][p] = (double4)(0.0);
  int m = 0;
  for (; m + 4 <= TILE; m += 4) {
    double4 xv[RB], yv[CB];
    #pragma unroll
    for (int q = 0; q < RB; ++q) xv[q] = load4(x + xr[q] + m);
    #pragma unroll
    for (int p = 0; p < CB; ++p) yv[p] = load4(y + yc[p] + m);
    #pragma unroll
    for (int q = 0; q < RB; ++q)
      #pragma unroll
      for (int p = 0; p < CB; ++p) acc[q][p] += xv[q] * yv[p];
  }
  double s[RB][CB];
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
INLINE double dot(const __global double* x, const __global double* y, int len) {
  double4 s0 = (double4)(0.0), s1 = (double4)(0.0);
  int m = 0;
  for (; m + 8 <= len; m += 8) {
    s0 += load4(x + m) * load4(y + m);
    s1 += load4(x + m + 4) * load4(y + m + 4);
  }
  double s = sum4(s0 + s1);
  for (; m < len; ++m) s += x[m] * y[m];
  return s;
}

// POTRF: factor the diagonal tile (k, k) in place, row by row (row r needs rows < r):
// L(r, c) = (A(r, c) - L(r, :c) . L(c, :c)) / L(c, c), L(r, r) = sqrt(A(r, r) - |L(r, :r)|^2).
// One work-item.
__kernel void potrf(__global double* a, int n, int k) {
  const int base = k * TILE;
  for (int r = 0; r < TILE; ++r) {
    __global double* row = &AT(base + r, base);
    for (int c = 0; c < r; ++c) {
      const __global double* lc = &AT(base + c, base);
      row[c] = (row[c] - dot(row, lc, c)) / lc[c];
    }
    row[r] = sqrt(row[r] - dot(row, row, r));
  }
}

// TRSM: tile (i, k) = tile (i, k) * L(k, k)^-T. Work-item g solves rows RB*g .. RB*g+RB-1,
// two columns a step: X(r, c) = (B(r, c) - X(r, :c) . L(c, :c)) / L(c, c).
__kernel void trsm(__global double* a, int n, int i, int k) {
  const int r0 = (int)get_global_id(0) * RB;
  const __global double* l = &AT(k * TILE, k * TILE);
  __global double* x = &AT(i * TILE, k * TILE);
  size_t xr[RB];
  #pragma unroll
  for (int q = 0; q < RB; ++q) xr[q] = (size_t)min(r0 + q, TILE - 1) * (size_t)n;
  for (int c = 0; c < TILE; c += 2) {
    const int c1 = min(c + 1, TILE - 1);  // the second column (== c on an odd last step)
    const __global double* l0 = l + (size_t)c * (size_t)n;
    const __global double* l1 = l + (size_t)c1 * (size_t)n;
    double4 acc0[RB], acc1[RB];
    #pragma unroll
    for (int q = 0; q < RB; ++q) acc0[q] = acc1[q] = (double4)(0.0);
    int m = 0;
    for (; m + 4 <= c; m += 4) {
      const double4 v0 = load4(l0 + m), v1 = load4(l1 + m);
      #pragma unroll
      for (int q = 0; q < RB; ++q) {
        const double4 xv = load4(x + xr[q] + m);
        acc0[q] += xv * v0;
        acc1[q] += xv * v1;
      }
    }
    double s0[RB], s1[RB];
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
      const double v = (x[xr[q] + c] - s0[q]) / l0[c];
      if (r0 + q < TILE) x[xr[q] + c] = v;
      if (c1 != c && r0 + q < TILE) x[xr[q] + c1] = (x[xr[q] + c1] - s1[q] - v * l1[c]) / l1[c1];
    }
  }
}

// SYRK: tile (i, i) -= tile (i, k) * tile (i, k)^T, lower triangle only. Work-item (x, y)
// owns rows RB*y.. and columns CB*x..; blocks wholly above the diagonal do nothing.
__kernel void syrk(__global double* a, int n, int i, int k) {
  const int c0 = (int)get_global_id(0) * CB, r0 = (int)get_global_id(1) * RB;
  if (c0 > r0 + RB - 1) return;
  const __global double* x = &AT(i * TILE, k * TILE);
  update_block(a, n, (size_t)(i * TILE) * (size_t)n + (size_t)(i * TILE), x, x, r0, c0, 1);
}

// GEMM: tile (i, j) -= tile (i, k) * tile (j, k)^T, for i > j. Work-item (x, y) owns rows
// RB*y.. and columns CB*x.. of the tile.
__kernel void gemm(__global double* a, int n, int i, int j, int k) {
  const int c0 = (int)get_global_id(0) * CB, r0 = (int)get_global_id(1) * RB;
  update_block(a, n, (size_t)(i * TILE) * (size_t)n + (size_t)(j * TILE), &AT(i * TILE, k * TILE),
               &AT(j * TILE, k * TILE), r0, c0, 0);
}

#else
// ---------------------------------------------------------------------------------------
// GPU shape
#define GT 16          // threads per side of a gemm/syrk work-group (GT x GT)
#define GW 4           // outputs per thread per side
#define GB (GT * GW)   // output block side of a work-group
#define BK 16          // reduction depth staged per step
#define GS (GB + 1)    // __local row stride (a pad against bank conflicts)
#define NB 16          // column block of trsm and potrf
#define TR 32          // rows (threads) of a trsm work-group
#define PT 256         // threads of the potrf work-group

// C -= X * Y^T for the GB x GB block (get_group_id(1), get_group_id(0)) of the output tile at
// `out`, X's rows at x and Y's rows at y (stride n); `lower`: only c <= r.
INLINE void update_block(__global double* a, int n, size_t out, const __global double* x,
                         const __global double* y, int lower, __local double* xs,
                         __local double* ys) {
  const int tx = (int)get_local_id(0), ty = (int)get_local_id(1), tid = ty * GT + tx;
  const int br = (int)get_group_id(1) * GB, bc = (int)get_group_id(0) * GB;
  if (lower && bc > br + GB - 1) return;  // the whole group: no barrier reached by anyone
  double acc[GW][GW];
  #pragma unroll
  for (int q = 0; q < GW; ++q)
    #pragma unroll
    for (int p = 0; p < GW; ++p) acc[q][p] = 0.0;
  for (int m0 = 0; m0 < TILE; m0 += BK) {
    // GB rows x BK columns of each operand; consecutive threads read consecutive columns.
    // (e - row * BK, not e % BK: LLVM freezes a divided value used by / and %, and the
    // SPIR-V translator has no freeze.)
    for (int e = tid; e < GB * BK; e += GT * GT) {
      const int row = e / BK, col = e - row * BK, m = m0 + col;
      const size_t xo = (size_t)min(br + row, TILE - 1) * (size_t)n + (size_t)m;
      const size_t yo = (size_t)min(bc + row, TILE - 1) * (size_t)n + (size_t)m;
      xs[col * GS + row] = m < TILE ? x[xo] : 0.0;
      ys[col * GS + row] = m < TILE ? y[yo] : 0.0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      double xv[GW], yv[GW];
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
      if (r < TILE && c < TILE && (!lower || c <= r))
        a[out + (size_t)r * (size_t)n + (size_t)c] -= acc[q][p];
    }
}

// Stages the NB x NB block of the tile at t (stride n) whose top-left is (r0, c0) in ls
// (row-major, stride NB): entries past the tile read 0, or 1 on the diagonal.
INLINE void stage_block(const __global double* t, int n, int r0, int c0, __local double* ls) {
  for (int e = (int)get_local_id(0); e < NB * NB; e += (int)get_local_size(0)) {
    const int q = e / NB, r = r0 + q, c = c0 + e - q * NB;  // (no %: see update_block)
    ls[e] = r < TILE && c < TILE ? t[(size_t)r * (size_t)n + (size_t)c] : (r == c ? 1.0 : 0.0);
  }
}

// acc[c] = sum_{m < depth} row[m] * L(r0 + c, m) for c < NB, L the tile at t (stride n), its
// NB x NB blocks staged in ls. Every thread of the group calls it alike (it has barriers).
INLINE void block_product(double* acc, const __global double* row, const __global double* t,
                          int n, int r0, int depth, __local double* ls) {
  #pragma unroll
  for (int c = 0; c < NB; ++c) acc[c] = 0.0;
  for (int m0 = 0; m0 < depth; m0 += NB) {
    barrier(CLK_LOCAL_MEM_FENCE);
    stage_block(t, n, r0, m0, ls);
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int mm = 0; mm < NB; ++mm) {
      const double v = row[m0 + mm];
      #pragma unroll
      for (int c = 0; c < NB; ++c) acc[c] = fma(v, ls[c * NB + mm], acc[c]);
    }
  }
}

// x = x * L^-T in place (forward substitution) for the lower NB x NB block L staged in ls.
INLINE void solve_block(double* x, __local const double* ls) {
  #pragma unroll
  for (int c = 0; c < NB; ++c) {
    double v = x[c];
    #pragma unroll
    for (int m = 0; m < NB; ++m)
      if (m < c) v -= x[m] * ls[c * NB + m];
    x[c] = v / ls[c * NB + c];
  }
}

// POTRF: factor the diagonal tile (k, k) in place, left-looking by panels of NB columns, in
// one work-group of PT threads: (1) panel rows -= L(rows, :p) * L(panel, :p)^T, a thread a
// row with L's panel rows staged NB columns at a time; (2) the NB x NB diagonal block is
// factored in __local memory; (3) each row below solves against it.
__kernel void potrf(__global double* a, int n, int k) {
  __local double ls[NB * NB];
  const int tid = (int)get_local_id(0);
  __global double* t = &AT(k * TILE, k * TILE);
  for (int p = 0; p < TILE; p += NB) {
    for (int r0 = p; r0 < TILE; r0 += PT) {
      const int r = min(r0 + tid, TILE - 1);
      __global double* row = t + (size_t)r * (size_t)n;
      double acc[NB];
      block_product(acc, row, t, n, p, p, ls);
      #pragma unroll
      for (int c = 0; c < NB; ++c)
        if (r0 + tid < TILE && p + c <= r) row[p + c] -= acc[c];
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    stage_block(t, n, p, p, ls);
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll
    for (int c = 0; c < NB; ++c) {  // unblocked right-looking factorisation of ls
      if (tid == 0) ls[c * NB + c] = sqrt(ls[c * NB + c]);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (tid > c && tid < NB) ls[tid * NB + c] /= ls[c * NB + c];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (tid > c && tid < NB)
        for (int c2 = c + 1; c2 <= tid; ++c2) ls[tid * NB + c2] -= ls[tid * NB + c] * ls[c2 * NB + c];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int r = p + tid; r < TILE; r += PT) {
      __global double* row = t + (size_t)r * (size_t)n;
      if (r < p + NB) {  // the diagonal block's own rows
        for (int c = 0; c <= r - p; ++c) row[p + c] = ls[(r - p) * NB + c];
        continue;
      }
      double xv[NB];
      #pragma unroll
      for (int c = 0; c < NB; ++c) xv[c] = p + c < TILE ? row[p + c] : 0.0;
      solve_block(xv, ls);
      #pragma unroll
      for (int c = 0; c < NB; ++c)
        if (p + c < TILE) row[p + c] = xv[c];
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  }
}

// TRSM: tile (i, k) = tile (i, k) * L(k, k)^-T. A thread a row, TR rows a work-group; by
// blocks of NB columns: the block -= X(row, :cb) * L(block, :cb)^T with L's blocks staged in
// __local memory, then the row solves against the staged diagonal block.
__kernel void trsm(__global double* a, int n, int i, int k) {
  __local double ls[NB * NB];
  const int r = (int)get_global_id(0);
  const __global double* l = &AT(k * TILE, k * TILE);
  __global double* row = &AT(i * TILE + min(r, TILE - 1), k * TILE);
  for (int cb = 0; cb < TILE; cb += NB) {
    double acc[NB];
    block_product(acc, row, l, n, cb, cb, ls);
    barrier(CLK_LOCAL_MEM_FENCE);
    stage_block(l, n, cb, cb, ls);
    barrier(CLK_LOCAL_MEM_FENCE);
    double xv[NB];
    #pragma unroll
    for (int c = 0; c < NB; ++c) xv[c] = cb + c < TILE ? row[cb + c] - acc[c] : 0.0;
    solve_block(xv, ls);
    #pragma unroll
    for (int c = 0; c < NB; ++c)
      if (r < TILE && cb + c < TILE) row[cb + c] = xv[c];
  }
}

// SYRK: tile (i, i) -= tile (i, k) * tile (i, k)^T, lower triangle only; GB x GB blocks.
__kernel void syrk(__global double* a, int n, int i, int k) {
  __local double xs[BK * GS], ys[BK * GS];
  const __global double* x = &AT(i * TILE, k * TILE);
  update_block(a, n, (size_t)(i * TILE) * (size_t)n + (size_t)(i * TILE), x, x, 1, xs, ys);
}

// GEMM: tile (i, j) -= tile (i, k) * tile (j, k)^T, for i > j; GB x GB blocks.
__kernel void gemm(__global double* a, int n, int i, int j, int k) {
  __local double xs[BK * GS], ys[BK * GS];
  update_block(a, n, (size_t)(i * TILE) * (size_t)n + (size_t)(j * TILE), &AT(i * TILE, k * TILE),
               &AT(j * TILE, k * TILE), 0, xs, ys);
}
#endif
