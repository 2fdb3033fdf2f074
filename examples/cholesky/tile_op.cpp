// The names of tile operations and POTRF's failure message (tile_graph.hpp), in the native
// library (native_tiles.hpp) that the tile tasks' native functions need on every node.
#include <string>

#include "tile_graph.hpp"

namespace cholesky {

const char* name(TileKind kind) {
  switch (kind) {
    case TileKind::potrf: return "potrf";
    case TileKind::trsm: return "trsm";
    case TileKind::syrk: return "syrk";
    case TileKind::gemm: return "gemm";
  }
  return "?";
}

std::string describe(const TileOp& op) {
  return std::string(name(op.kind)) + " of tile (" + std::to_string(op.i) + ", " +
         std::to_string(op.j) + ") at step " + std::to_string(op.k);
}

std::string potrf_failure(const char* routine, std::size_t k, int info) {
  return std::string(routine) + " of tile (" + std::to_string(k) + ", " + std::to_string(k) +
         "): info " + std::to_string(info) +
         (info > 0 ? " (the leading minor of that order is not positive definite)"
                   : " (an argument was wrong)");
}

}  // namespace cholesky
