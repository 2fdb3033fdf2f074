// The GPU shape's launches of one tile operation (cholesky_kernels.cl, SHAPE_GPU), over
// absolute positions of the n x n matrix:
//   gemm (i, j, k), syrk (i, i, k): one update of the tile by the tiles of column k;
//   potrf (k): per panel of `panel` columns: factor its diagonal block, solve the tile's
//     rows below it, update the tile's lower triangle right of it (no solve or update after
//     the last panel);
//   trsm (i, k): per panel of L(k, k): solve the tile's rows at the panel's columns, update
//     the tile's columns right of it.
// Each step is one launch: the steps of a tile operation run in order (the same tile
// read_write), each one wide enough to fill a GPU. Plain values; thread-safe.
#pragma once

#include <cstddef>
#include <vector>

#include "tile_graph.hpp"

namespace cholesky {

enum class GpuKernel { factor, solve, update };

// The arguments of the step's kernel after (a, n): factor(c, w); solve(c, w, r0, rows);
// update(r0, c0, rows, cols, d0, depth, lower).
struct GpuStep {
  GpuKernel kernel = GpuKernel::update;
  int c = 0, w = 0;                         // factor, solve: the diagonal block at (c, c), w wide
  int r0 = 0, rows = 0;                     // solve, update: the rows changed
  int c0 = 0, cols = 0, d0 = 0, depth = 0;  // update: the columns changed, those it reads
  int lower = 0;                            // update: only the lower triangle (r0 == c0)
};

std::vector<GpuStep> gpu_tile_steps(const TileOp& op, const TileLayout& layout, std::size_t panel);

}  // namespace cholesky
