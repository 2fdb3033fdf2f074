#include "cuda_blas.hpp"

#include <algorithm>

#include <plexus/error.hpp>

#include "../common/cuda_libraries.hpp"
#include "cuda_tile_handles.hpp"

namespace cholesky::cuda_blas {

namespace {

// POTRF of the diagonal tile at `target`: waits for the stream, then returns its info.
int potrf(const examples::CudaLibraries& cuda, CudaTileHandles& h, int t, int ld, double* target,
          CUstream stream) {
  int needed = 0;
  cuda.check(cuda.cusolver.dpotrf_buffer_size(h.solver, CUBLAS_FILL_MODE_UPPER, t, target, ld, &needed),
             "cusolverDnDpotrf_bufferSize");
  if (needed > h.workspace_doubles || !h.workspace) {  // the stream is idle: its last POTRF waited
    if (h.workspace) cuda.driver.free(h.workspace);
    h.workspace = 0;
    h.workspace_doubles = 0;
    cuda.check(cuda.driver.allocate(&h.workspace, std::max(needed, 1) * sizeof(double)),
               "cuMemAlloc of POTRF's workspace");
    h.workspace_doubles = needed;
  }
  cuda.check(cuda.cusolver.dpotrf(h.solver, CUBLAS_FILL_MODE_UPPER, t, target, ld,
                                  reinterpret_cast<double*>(h.workspace), h.workspace_doubles,
                                  reinterpret_cast<int*>(h.info_device)),
             "cusolverDnDpotrf");
  cuda.check(cuda.driver.stream_synchronize(stream), "cuStreamSynchronize after cusolverDnDpotrf");
  return *h.info;
}

// Enqueues `op` (see enqueue()); a POTRF's info, else 0.
int run(const TileOp& op, const TileLayout& layout, CUcontext context, CUstream stream,
        CUdeviceptr a) {
  const examples::CudaLibraries& cuda = examples::CudaLibraries::get();
  const examples::CudaLibraries::ScopedContext pushed(cuda, context);
  const CudaTileHandleCache::Use use = CudaTileHandleCache::get().use(cuda, context, stream);
  CudaTileHandles& h = use.handles();
  const int t = static_cast<int>(layout.tile), ld = static_cast<int>(layout.n);
  double* base = reinterpret_cast<double*>(a);
  double* target = base + layout.offset(op.i, op.j);
  const double one = 1.0, minus_one = -1.0;
  // Column-major view of the row-major matrix: tile (r, c) is tile (c, r) transposed, the
  // row-major lower factor L is the column-major upper U = L^T (see host_blas.cpp).
  switch (op.kind) {
    case TileKind::potrf:
      return potrf(cuda, h, t, ld, target, stream);
    case TileKind::trsm:  // A(i,k)^T = U(k,k)^-T A(i,k)^T in column-major terms
      cuda.check(cuda.cublas.dtrsm(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                                   CUBLAS_DIAG_NON_UNIT, t, t, &one,
                                   base + layout.offset(op.k, op.k), ld, target, ld),
                 "cublasDtrsm");
      return 0;
    case TileKind::syrk:  // upper of C -= B^T B, B = A(i,k)^T
      cuda.check(cuda.cublas.dsyrk(h.blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, t, t, &minus_one,
                                   base + layout.offset(op.i, op.k), ld, &one, target, ld),
                 "cublasDsyrk");
      return 0;
    case TileKind::gemm:  // A(i,j)^T -= A(j,k) A(i,k)^T = B_j^T B_i, B_x = A(x,k)^T
      cuda.check(cuda.cublas.dgemm(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, t, t, t, &minus_one,
                                   base + layout.offset(op.j, op.k), ld,
                                   base + layout.offset(op.i, op.k), ld, &one, target, ld),
                 "cublasDgemm");
      return 0;
  }
  return 0;
}

}  // namespace

std::string libraries() { return examples::CudaLibraries::get().describe(); }

void enqueue(const TileOp& op, const TileLayout& layout, CUcontext context, CUstream stream,
             CUdeviceptr a) {
  int info = 0;
  try {
    info = run(op, layout, context, stream, a);
  } catch (const plexus::error& e) {  // a call that failed: which tile it was for
    throw plexus::error(e.category(), std::string(e.what()) + " (" + describe(op) + ")");
  }
  if (info != 0)
    throw plexus::error(plexus::error_category::device, potrf_failure("cusolverDnDpotrf", op.k, info));
}

void release() noexcept { CudaTileHandleCache::get().release(); }

}  // namespace cholesky::cuda_blas
