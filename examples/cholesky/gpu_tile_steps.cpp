#include "gpu_tile_steps.hpp"

#include <algorithm>

namespace cholesky {

namespace {

GpuStep factor(int c, int w) {
  GpuStep s;
  s.kernel = GpuKernel::factor;
  s.c = c;
  s.w = w;
  return s;
}

GpuStep solve(int c, int w, int r0, int rows) {
  GpuStep s = factor(c, w);
  s.kernel = GpuKernel::solve;
  s.r0 = r0;
  s.rows = rows;
  return s;
}

GpuStep update(int r0, int c0, int rows, int cols, int d0, int depth, bool lower) {
  GpuStep s;
  s.r0 = r0;
  s.rows = rows;
  s.c0 = c0;
  s.cols = cols;
  s.d0 = d0;
  s.depth = depth;
  s.lower = lower ? 1 : 0;
  return s;
}

}  // namespace

std::vector<GpuStep> gpu_tile_steps(const TileOp& op, const TileLayout& layout, std::size_t panel) {
  const int t = static_cast<int>(layout.tile), p = static_cast<int>(std::max<std::size_t>(panel, 1));
  const int ri = static_cast<int>(op.i) * t, cj = static_cast<int>(op.j) * t,
            ck = static_cast<int>(op.k) * t;
  std::vector<GpuStep> steps;
  switch (op.kind) {
    case TileKind::gemm:
    case TileKind::syrk:
      steps.push_back(update(ri, cj, t, t, ck, t, op.kind == TileKind::syrk));
      break;
    case TileKind::potrf:
      for (int c = ck; c < ck + t; c += p) {
        const int w = std::min(p, ck + t - c), below = ck + t - (c + w);
        steps.push_back(factor(c, w));
        if (below == 0) break;
        steps.push_back(solve(c, w, c + w, below));
        steps.push_back(update(c + w, c + w, below, below, c, w, true));
      }
      break;
    case TileKind::trsm:
      for (int c = ck; c < ck + t; c += p) {
        const int w = std::min(p, ck + t - c), right = ck + t - (c + w);
        steps.push_back(solve(c, w, ri, t));
        if (right > 0) steps.push_back(update(ri, c + w, t, right, c, w, false));
      }
      break;
  }
  return steps;
}

}  // namespace cholesky
