// The tile operations on a CUDA stream with cuBLAS (cublasDtrsm, cublasDsyrk, cublasDgemm) and
// cuSOLVER (cusolverDnDpotrf), loaded at run time (examples::CudaLibraries). The row-major
// matrix is the column-major transpose of itself: the lower factor is computed as the
// column-major upper one, so nothing is transposed or copied.
//
// enqueue() runs with the context pushed and returns once the work is enqueued on the
// stream (asynchronous, nothing waits). Each (context, stream) gets its own cuBLAS and
// cuSOLVER handle and POTRF workspace, made on first use and kept until the object goes.
// POTRF's info goes to page-locked host memory, one slot per diagonal tile; potrf_failure()
// reads it once the factorisation is done.
// Ownership: must be destroyed before the CUDA contexts it was used with (before the
// plexus::Runtime). Thread-safety: enqueue() from any number of threads (the handle map is
// locked; a stream is used by one thread at a time, as the queues' contract says).
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "tile_graph.hpp"

namespace examples {
class CudaLibraries;
}

namespace cholesky {

class CudaBlas {
 public:
  // Loads the libraries: plexus::error(unsupported) naming the one missing.
  explicit CudaBlas(const TileLayout& layout);
  CudaBlas(const CudaBlas&) = delete;
  CudaBlas& operator=(const CudaBlas&) = delete;
  ~CudaBlas();

  // "libcublas.so.13, libcusolver.so.12"
  std::string libraries() const;

  // Enqueues `op` on `stream` (of `context`) over the matrix at device address `a`.
  // Throws plexus::error(device) when a call fails.
  void enqueue(const TileOp& op, CUcontext context, CUstream stream, CUdeviceptr a);

  // After every POTRF has finished: "" or which tile was not positive definite.
  std::string potrf_failure() const;

 private:
  struct Handles;
  Handles& handles_for(CUcontext context, CUstream stream, CUdeviceptr a);  // context pushed

  const examples::CudaLibraries& cuda_;
  TileLayout layout_;
  std::mutex mutex_;
  std::map<std::pair<CUcontext, CUstream>, std::unique_ptr<Handles>> handles_;
  int* info_ = nullptr;  // one slot per diagonal tile, page-locked and mapped
};

}  // namespace cholesky
