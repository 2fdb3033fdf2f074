#include "cuda_blas.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include <plexus/error.hpp>

#include "../common/cuda_libraries.hpp"
#include "cuda_tile_handles.hpp"

namespace cholesky::cuda_blas {

namespace {

using examples::CublasCalls;
using examples::CusolverCalls;

// The entry points of element type T (float: the S ones, double: the D ones), and the
// letter their names have for errors (cusolverDnSpotrf, cublasDtrsm, ...).
template <class T>
struct CudaRoutines {
  static constexpr auto potrf_buffer_size =
      of_element<T>(&CusolverCalls::spotrf_buffer_size, &CusolverCalls::dpotrf_buffer_size);
  static constexpr auto potrf = of_element<T>(&CusolverCalls::spotrf, &CusolverCalls::dpotrf);
  static constexpr auto trsm = of_element<T>(&CublasCalls::strsm, &CublasCalls::dtrsm);
  static constexpr auto syrk = of_element<T>(&CublasCalls::ssyrk, &CublasCalls::dsyrk);
  static constexpr auto gemm = of_element<T>(&CublasCalls::sgemm, &CublasCalls::dgemm);
  static constexpr const char* prefix = of_element<T>("S", "D");
};

template <class T>
std::string cusolver(const char* routine) {
  return std::string("cusolverDn") + CudaRoutines<T>::prefix + routine;
}
template <class T>
std::string cublas(const char* routine) {
  return std::string("cublas") + CudaRoutines<T>::prefix + routine;
}

// POTRF's workspace of at least `bytes` on the handles' stream (idle: its last POTRF waited).
void reserve_workspace(const examples::CudaLibraries& cuda, CudaTileHandles& h, std::size_t bytes) {
  if (h.workspace && bytes <= h.workspace_bytes) return;
  if (h.workspace) cuda.driver.free(h.workspace);
  h.workspace = 0;
  h.workspace_bytes = 0;
  bytes = std::max<std::size_t>(bytes, 1);
  cuda.check(cuda.driver.allocate(&h.workspace, bytes), "cuMemAlloc of POTRF's workspace");
  h.workspace_bytes = bytes;
}

// POTRF of the diagonal tile at `target`: waits for the stream, then returns its info.
template <class T>
int potrf(const examples::CudaLibraries& cuda, CudaTileHandles& h, int t, int ld, T* target,
          CUstream stream) {
  using R = CudaRoutines<T>;
  int needed = 0;  // in elements of T
  cuda.check((cuda.cusolver.*R::potrf_buffer_size)(h.solver, CUBLAS_FILL_MODE_UPPER, t, target, ld,
                                                   &needed),
             cusolver<T>("potrf_bufferSize"));
  reserve_workspace(cuda, h, std::size_t(std::max(needed, 0)) * sizeof(T));
  const int elements =
      static_cast<int>(std::min<std::size_t>(h.workspace_bytes / sizeof(T), INT_MAX));
  cuda.check((cuda.cusolver.*R::potrf)(h.solver, CUBLAS_FILL_MODE_UPPER, t, target, ld,
                                       reinterpret_cast<T*>(h.workspace), elements,
                                       reinterpret_cast<int*>(h.info_device)),
             cusolver<T>("potrf"));
  cuda.check(cuda.driver.stream_synchronize(stream),
             "cuStreamSynchronize after " + cusolver<T>("potrf"));
  return *h.info;
}

// Enqueues `op` (see enqueue()) over a matrix of T; a POTRF's info, else 0.
template <class T>
int run(const TileOp& op, const TileLayout& layout, CUcontext context, CUstream stream,
        CUdeviceptr a) {
  using R = CudaRoutines<T>;
  const examples::CudaLibraries& cuda = examples::CudaLibraries::get();
  const examples::CudaLibraries::ScopedContext pushed(cuda, context);
  const CudaTileHandleCache::Use use = CudaTileHandleCache::get().use(cuda, context, stream);
  CudaTileHandles& h = use.handles();
  const int t = static_cast<int>(layout.tile), ld = static_cast<int>(layout.n);
  T* base = reinterpret_cast<T*>(a);
  T* target = base + layout.offset(op.i, op.j);
  const T one = 1, minus_one = -1;
  // Column-major view of the row-major matrix: tile (r, c) is tile (c, r) transposed, the
  // row-major lower factor L is the column-major upper U = L^T (see host_blas.cpp).
  switch (op.kind) {
    case TileKind::potrf:
      return potrf(cuda, h, t, ld, target, stream);
    case TileKind::trsm:  // A(i,k)^T = U(k,k)^-T A(i,k)^T in column-major terms
      cuda.check((cuda.cublas.*R::trsm)(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                                        CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, t, t, &one,
                                        base + layout.offset(op.k, op.k), ld, target, ld),
                 cublas<T>("trsm"));
      return 0;
    case TileKind::syrk:  // upper of C -= B^T B, B = A(i,k)^T
      cuda.check(
          (cuda.cublas.*R::syrk)(h.blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, t, t, &minus_one,
                                 base + layout.offset(op.i, op.k), ld, &one, target, ld),
          cublas<T>("syrk"));
      return 0;
    case TileKind::gemm:  // A(i,j)^T -= A(j,k) A(i,k)^T = B_j^T B_i, B_x = A(x,k)^T
      cuda.check((cuda.cublas.*R::gemm)(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, t, t, t, &minus_one,
                                        base + layout.offset(op.j, op.k), ld,
                                        base + layout.offset(op.i, op.k), ld, &one, target, ld),
                 cublas<T>("gemm"));
      return 0;
  }
  return 0;
}

}  // namespace

std::string libraries() { return examples::CudaLibraries::get().describe(); }

void enqueue(const TileOp& op, const TileLayout& layout, Precision precision, CUcontext context,
             CUstream stream, CUdeviceptr a) {
  with_element(precision, [&](auto zero) {
    using T = decltype(zero);
    int info = 0;
    try {
      info = run<T>(op, layout, context, stream, a);
    } catch (const plexus::error& e) {  // a call that failed: which tile it was for
      throw plexus::error(e.category(), std::string(e.what()) + " (" + describe(op) + ")");
    }
    if (info != 0)
      throw plexus::error(plexus::error_category::device,
                          potrf_failure(cusolver<T>("potrf").c_str(), op.k, info));
  });
}

void release() noexcept { CudaTileHandleCache::get().release(); }

}  // namespace cholesky::cuda_blas
