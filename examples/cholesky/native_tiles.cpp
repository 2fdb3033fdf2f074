#include "native_tiles.hpp"

#include <cstdint>
#include <string>

#include <plexus/error.hpp>

#include "host_blas.hpp"

#if PLEXUS_EXAMPLES_HAVE_CUDA
#include "cuda_blas.hpp"
#endif

namespace cholesky {

namespace {

// A call's bytes may come from another process: an operation outside the matrix would
// read and write past it.
void check(const plexus::InteropHandle& handle, const TileCall& call) {
  const TileOp& op = call.op;
  const std::size_t tiles = call.layout.tile ? call.layout.n / call.layout.tile : 0;
  const bool known_kind = op.kind == TileKind::potrf || op.kind == TileKind::trsm ||
                          op.kind == TileKind::syrk || op.kind == TileKind::gemm;
  std::string wrong;
  if (tiles == 0 || call.layout.n % call.layout.tile != 0)
    wrong = "tile " + std::to_string(call.layout.tile) + " does not divide n " +
            std::to_string(call.layout.n);
  else if (!known_kind)
    wrong = "unknown tile operation " + std::to_string(static_cast<int>(op.kind));
  else if (!(op.k <= op.j && op.j <= op.i && op.i < tiles))
    wrong = std::string(name(op.kind)) + " of tile (" + std::to_string(op.i) + ", " +
            std::to_string(op.j) + ") at step " + std::to_string(op.k) + " is not in a " +
            std::to_string(tiles) + " x " + std::to_string(tiles) + " tiled matrix";
  else if (call.target >= handle.accessors())
    wrong = "accessor " + std::to_string(call.target) + " of a task with " +
            std::to_string(handle.accessors());
  else if (!known(call.precision))
    wrong = "unknown " + name(call.precision) + " (single " +
            std::to_string(static_cast<unsigned>(Precision::single)) + ", double " +
            std::to_string(static_cast<unsigned>(Precision::double_)) + ")";
  if (!wrong.empty())
    throw plexus::error(plexus::error_category::invalid_argument, "cholesky tile call: " + wrong);
  // The operation reaches into the whole n x n matrix (leading dimension n) from the start
  // of the target's memory: n * n elements must be there.
  const std::size_t n = call.layout.n;
  handle.require_memory(
      call.target, n <= SIZE_MAX / n ? n * n : SIZE_MAX, element_size(call.precision),
      "cholesky tile call: " + describe(op) + " of a " + std::to_string(n) + " x " +
          std::to_string(n) + " matrix in tiles of " + std::to_string(call.layout.tile));
}

void host(plexus::InteropHandle& handle, const TileCall& call) {
  check(handle, call);
  with_element(call.precision, [&](auto zero) {
    using T = decltype(zero);
    const int info = host_blas::run(call.op, call.layout, handle.native_memory<T*>(call.target));
    if (info != 0)
      throw plexus::error(plexus::error_category::device,
                          potrf_failure(host_blas::potrf_routine<T>(), call.op.k, info));
  });
}

void nothing(plexus::InteropHandle&, const NoArguments&) {}

#if PLEXUS_EXAMPLES_HAVE_CUDA
void cuda(plexus::InteropHandle& handle, const TileCall& call) {
  check(handle, call);
  cuda_blas::enqueue(call.op, call.layout, call.precision, handle.native_context<CUcontext>(),
                     handle.native_queue<CUstream>(),
                     handle.native_memory<CUdeviceptr>(call.target));
}
#endif

}  // namespace

const plexus::NativeFunction<TileCall> host_tile{"cholesky.host_tile", "host", &host};
const plexus::NativeFunction<NoArguments> host_resident{"cholesky.host_resident", "host", &nothing};

#if PLEXUS_EXAMPLES_HAVE_CUDA
const plexus::NativeFunction<TileCall> cuda_tile{"cholesky.cuda_tile", "cuda", &cuda};
const plexus::NativeFunction<NoArguments> cuda_resident{"cholesky.cuda_resident", "cuda", &nothing};
#endif

}  // namespace cholesky
