#include "cuda_blas.hpp"

#include <algorithm>
#include <cstring>

#include <plexus/error.hpp>

#include "../common/cuda_libraries.hpp"

namespace cholesky {

struct CudaBlas::Handles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  CUdeviceptr workspace = 0;  // POTRF's, `workspace_doubles` of them
  int workspace_doubles = 0;
  CUdeviceptr info = 0;       // info_ as this context addresses it
};

CudaBlas::CudaBlas(const TileLayout& layout)
    : cuda_(examples::CudaLibraries::get()), layout_(layout) {}

CudaBlas::~CudaBlas() {
  // Best effort: a context that failed (sticky errors) cannot release anything.
  for (auto& [key, handles] : handles_) {
    if (cuda_.driver.push_context(key.first) != CUDA_SUCCESS) continue;
    cuda_.driver.stream_synchronize(key.second);
    cuda_.cublas.destroy(handles->blas);
    cuda_.cusolver.destroy(handles->solver);
    if (handles->workspace) cuda_.driver.free(handles->workspace);
    CUcontext popped = nullptr;
    cuda_.driver.pop_context(&popped);
  }
  if (info_ && !handles_.empty() && cuda_.driver.push_context(handles_.begin()->first.first) == CUDA_SUCCESS) {
    cuda_.driver.host_free(info_);
    CUcontext popped = nullptr;
    cuda_.driver.pop_context(&popped);
  }
}

std::string CudaBlas::libraries() const { return cuda_.describe(); }

CudaBlas::Handles& CudaBlas::handles_for(CUcontext context, CUstream stream, CUdeviceptr a) {
  const std::lock_guard lock(mutex_);
  std::unique_ptr<Handles>& slot = handles_[{context, stream}];
  if (slot) return *slot;
  if (!info_) {
    void* info = nullptr;
    cuda_.check(cuda_.driver.host_allocate(&info, (layout_.n / layout_.tile) * sizeof(int),
                                           CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                "cuMemHostAlloc of POTRF's info");
    info_ = static_cast<int*>(info);
    std::memset(info_, 0, (layout_.n / layout_.tile) * sizeof(int));
  }
  auto handles = std::make_unique<Handles>();
  const auto release = [&] {  // on a failure below: nothing half-made stays behind
    if (handles->blas) cuda_.cublas.destroy(handles->blas);
    if (handles->solver) cuda_.cusolver.destroy(handles->solver);
    if (handles->workspace) cuda_.driver.free(handles->workspace);
  };
  try {
    cuda_.check(cuda_.cublas.create(&handles->blas), "cublasCreate");
    cuda_.check(cuda_.cublas.set_stream(handles->blas, stream), "cublasSetStream");
    cuda_.check(cuda_.cusolver.create(&handles->solver), "cusolverDnCreate");
    cuda_.check(cuda_.cusolver.set_stream(handles->solver, stream), "cusolverDnSetStream");
    const int t = static_cast<int>(layout_.tile), ld = static_cast<int>(layout_.n);
    cuda_.check(cuda_.cusolver.dpotrf_buffer_size(handles->solver, CUBLAS_FILL_MODE_UPPER, t,
                                                  reinterpret_cast<double*>(a), ld,
                                                  &handles->workspace_doubles),
                "cusolverDnDpotrf_bufferSize");
    cuda_.check(cuda_.driver.allocate(&handles->workspace,
                                      std::max(handles->workspace_doubles, 1) * sizeof(double)),
                "cuMemAlloc of POTRF's workspace");
    cuda_.check(cuda_.driver.host_device_pointer(&handles->info, info_, 0),
                "cuMemHostGetDevicePointer of POTRF's info");
  } catch (...) {
    release();
    throw;
  }
  slot = std::move(handles);
  return *slot;
}

void CudaBlas::enqueue(const TileOp& op, CUcontext context, CUstream stream, CUdeviceptr a) {
  const examples::CudaLibraries::ScopedContext pushed(cuda_, context);
  Handles& h = handles_for(context, stream, a);
  const int t = static_cast<int>(layout_.tile), ld = static_cast<int>(layout_.n);
  double* base = reinterpret_cast<double*>(a);
  double* target = base + layout_.offset(op.i, op.j);
  const double one = 1.0, minus_one = -1.0;
  // Column-major view of the row-major matrix: tile (r, c) is tile (c, r) transposed, the
  // row-major lower factor L is the column-major upper U = L^T (see host_blas.cpp).
  switch (op.kind) {
    case TileKind::potrf:
      cuda_.check(cuda_.cusolver.dpotrf(h.solver, CUBLAS_FILL_MODE_UPPER, t, target, ld,
                                        reinterpret_cast<double*>(h.workspace),
                                        h.workspace_doubles,
                                        reinterpret_cast<int*>(h.info) + op.k),
                  "cusolverDnDpotrf");
      return;
    case TileKind::trsm:  // A(i,k)^T = U(k,k)^-T A(i,k)^T in column-major terms
      cuda_.check(cuda_.cublas.dtrsm(h.blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                                     CUBLAS_DIAG_NON_UNIT, t, t, &one,
                                     base + layout_.offset(op.k, op.k), ld, target, ld),
                  "cublasDtrsm");
      return;
    case TileKind::syrk:  // upper of C -= B^T B, B = A(i,k)^T
      cuda_.check(cuda_.cublas.dsyrk(h.blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, t, t, &minus_one,
                                     base + layout_.offset(op.i, op.k), ld, &one, target, ld),
                  "cublasDsyrk");
      return;
    case TileKind::gemm:  // A(i,j)^T -= A(j,k) A(i,k)^T = B_j^T B_i, B_x = A(x,k)^T
      cuda_.check(cuda_.cublas.dgemm(h.blas, CUBLAS_OP_T, CUBLAS_OP_N, t, t, t, &minus_one,
                                     base + layout_.offset(op.j, op.k), ld,
                                     base + layout_.offset(op.i, op.k), ld, &one, target, ld),
                  "cublasDgemm");
      return;
  }
}

std::string CudaBlas::potrf_failure() const {
  if (!info_) return "";
  for (std::size_t k = 0; k < layout_.n / layout_.tile; ++k)
    if (info_[k] != 0) return cholesky::potrf_failure("cusolverDnDpotrf", k, info_[k]);
  return "";
}

}  // namespace cholesky
