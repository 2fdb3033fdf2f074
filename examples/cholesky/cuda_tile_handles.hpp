// CudaTileHandles: what the CUDA tile operations (cuda_blas.hpp) keep between calls — a
// cuBLAS and a cuSOLVER handle bound to one stream, POTRF's workspace and its info word —
// one set per (CUDA context, stream), made on first use in the process that runs the tile
// (rank 0 for its own GPU, the `plexus worker` that has the GPU for a remote one) and kept
// for the next tiles on that stream, also across runtimes of the process.
//
// Contexts: a set lives in the device's primary context (the cuda backend's), which the
// cache retains (cuDevicePrimaryCtxRetain) while it holds sets there, so that the context
// is never destroyed under them nor made again under the same handle (a second Runtime of
// the process finds its sets valid). A context that is not its device's primary one is
// refused (plexus::error(unsupported)).
// Lifetime: release() destroys every set once the GPU work of their contexts is done
// (cuCtxSynchronize) and drops the retains; a call after it makes new sets. Nothing is
// destroyed at static destruction (the cache is never destroyed: cuBLAS, cuSOLVER and the
// driver may be gone by then, as PyTorch's handle pools also found): a process that never
// calls release() (a worker) gives them back with its contexts when it ends.
// Thread-safety: any number of threads use() at once (one thread per stream, as the
// queues' contract says); release() waits until no Use is alive and blocks new ones.
#pragma once

#include <cublas_v2.h>
#include <cuda.h>
#include <cusolverDn.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

namespace examples {
class CudaLibraries;
}

namespace cholesky {

struct CudaTileHandles {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  CUdeviceptr workspace = 0;  // POTRF's, grown on demand (the stream is idle after a POTRF)
  std::size_t workspace_bytes = 0;  // its size (float and double POTRFs share it)
  int* info = nullptr;        // POTRF's info: page-locked host memory, mapped
  CUdeviceptr info_device = 0;  // the same word as the device addresses it
};

class CudaTileHandleCache {
 public:
  // The process's cache (never destroyed).
  static CudaTileHandleCache& get();

  // The set of (context, stream), held against release() while the Use lives.
  class Use {
   public:
    CudaTileHandles& handles() const { return *handles_; }

   private:
    friend class CudaTileHandleCache;
    Use(std::shared_lock<std::shared_mutex> lock, CudaTileHandles& handles)
        : lock_(std::move(lock)), handles_(&handles) {}
    std::shared_lock<std::shared_mutex> lock_;
    CudaTileHandles* handles_;
  };

  // With `context` current on the calling thread. Makes the set on first use: throws
  // plexus::error(device) naming the call that failed (nothing half-made stays), or
  // plexus::error(unsupported) for a context that is not its device's primary one.
  Use use(const examples::CudaLibraries& cuda, CUcontext context, CUstream stream);

  // Destroys every set (best effort: a context with a sticky error cannot release
  // anything). Loads nothing when there is none.
  void release() noexcept;

 private:
  CudaTileHandleCache() = default;
  CudaTileHandles& make(const examples::CudaLibraries& cuda, CUcontext context, CUstream stream);

  std::shared_mutex use_mutex_;  // use(): shared, release(): exclusive
  std::mutex map_mutex_;         // the maps below
  std::map<std::pair<CUcontext, CUstream>, std::unique_ptr<CudaTileHandles>> handles_;
  std::map<CUcontext, CUdevice> retained_;  // primary contexts retained, by their device
  const examples::CudaLibraries* cuda_ = nullptr;  // set with the first set made
};

}  // namespace cholesky
