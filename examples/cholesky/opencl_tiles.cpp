#include "opencl_tiles.hpp"

#include <string>

#include "cholesky_kernels.hpp"

namespace cholesky {

OpenClTiles::OpenClTiles(plexus::Runtime& runtime, const plexus::Device& device,
                         const TileLayout& layout, examples::CholeskyShape shape)
    : layout_(layout),
      launch_(examples::cholesky_launch(device.info(), layout.tile, shape)),
      bundle_(runtime.build(examples::cholesky_kernels, launch_.options)),
      potrf_(bundle_.kernel("potrf")),
      trsm_(bundle_.kernel("trsm")),
      syrk_(bundle_.kernel("syrk")),
      gemm_(bundle_.kernel("gemm")) {}

void OpenClTiles::record(plexus::Handler& h, const TileOp& op,
                         const plexus::Accessor<double, 2>& target) {
  const int n = static_cast<int>(layout_.n), i = static_cast<int>(op.i),
            j = static_cast<int>(op.j), k = static_cast<int>(op.k);
  switch (op.kind) {
    case TileKind::potrf:
      h.parallel_for(potrf_, launch_.potrf, target, n, k);
      break;
    case TileKind::trsm:
      h.parallel_for(trsm_, launch_.trsm, target, n, i, k);
      break;
    case TileKind::syrk:
      h.parallel_for(syrk_, launch_.update, target, n, i, k);
      break;
    case TileKind::gemm:
      h.parallel_for(gemm_, launch_.update, target, n, i, j, k);
      break;
  }
}

}  // namespace cholesky
