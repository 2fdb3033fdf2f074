#include "tile_graph.hpp"

#include <initializer_list>
#include <utility>

namespace cholesky {

template <class T>
std::size_t submit_factorisation(plexus::Queue& queue, plexus::Buffer<T, 2>& a,
                                 const TileLayout& layout, TileKernels<T>& kernels) {
  const std::size_t tile = layout.tile, tiles = layout.n / tile;
  const plexus::Range<2> extent{tile, tile};
  std::size_t tasks = 0;
  // One task per step of `op`: read_write of tile (op.i, op.j), read of each tile in `reads`.
  const auto submit = [&](const TileOp& op,
                          std::initializer_list<std::pair<std::size_t, std::size_t>> reads) {
    for (std::size_t step = 0, steps = kernels.steps(op); step < steps; ++step) {
      queue.submit([&](plexus::Handler& h) {
        const auto target = a.access(h, plexus::read_write, extent, {op.i * tile, op.j * tile});
        for (const auto& [row, col] : reads) a.access(h, plexus::read, extent, {row * tile, col * tile});
        kernels.record(h, op, step, target);
      });
      ++tasks;
    }
  };
  for (std::size_t k = 0; k < tiles; ++k) {
    submit({TileKind::potrf, k, k, k}, {});
    for (std::size_t i = k + 1; i < tiles; ++i) submit({TileKind::trsm, i, k, k}, {{k, k}});
    for (std::size_t i = k + 1; i < tiles; ++i) {
      submit({TileKind::syrk, i, i, k}, {{i, k}});
      for (std::size_t j = k + 1; j < i; ++j) submit({TileKind::gemm, i, j, k}, {{i, k}, {j, k}});
    }
  }
  return tasks;
}

template std::size_t submit_factorisation<float>(plexus::Queue&, plexus::Buffer<float, 2>&,
                                                 const TileLayout&, TileKernels<float>&);
template std::size_t submit_factorisation<double>(plexus::Queue&, plexus::Buffer<double, 2>&,
                                                  const TileLayout&, TileKernels<double>&);

}  // namespace cholesky
