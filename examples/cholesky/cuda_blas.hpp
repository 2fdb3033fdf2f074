// The tile operations on a CUDA stream with cuBLAS (cublas?trsm, cublas?syrk, cublas?gemm) and
// cuSOLVER (cusolverDn?potrf), S for a float matrix and D for a double one, loaded at run
// time (examples::CudaLibraries) by the process
// that runs them: the body of the registered native function cholesky.cuda_tile
// (native_tiles.hpp), on rank 0 for its own GPUs and in `plexus worker` for a remote one. The
// row-major matrix is the column-major transpose of itself: the lower factor is computed as
// the column-major upper one, so nothing is transposed or copied.
//
// enqueue() pushes the context, enqueues on the stream with the (context, stream)'s handles
// (cuda_tile_handles.hpp: made on first use) and returns: TRSM, SYRK and GEMM without
// waiting; a POTRF (its workspace queried with cusolverDn?potrf_bufferSize and kept with the
// handles, in bytes) waits for its stream and reads its info, so that a tile that is not
// positive definite fails its own task, named, wherever it ran (one wait per diagonal tile,
// n/tile per factorisation: the TRSMs of its column wait for it anyway).
// Thread-safety: enqueue() from any number of threads, one per stream at a time (the
// queues' contract); release() as CudaTileHandleCache::release says.
#pragma once

#include <cuda.h>

#include <string>

#include "precision.hpp"
#include "tile_graph.hpp"

namespace cholesky::cuda_blas {

// Loads the libraries (once per process): "libcublas.so.13, libcusolver.so.12", or
// plexus::error(unsupported) naming the one missing and how to get it.
std::string libraries();

// Enqueues `op` of `layout` on `stream` (of `context`) over the matrix of `precision`
// elements at device address `a`. Throws plexus::error(unsupported) when a library is
// missing, plexus::error(device) naming the call that failed and the tile operation
// ("cublasDtrsm failed: ... (trsm of tile (2, 0) at step 0)"), or for a POTRF whose info is
// not 0 (potrf_failure: the tile).
void enqueue(const TileOp& op, const TileLayout& layout, Precision precision, CUcontext context,
             CUstream stream, CUdeviceptr a);

// Destroys this process's handles once their work is done (CudaTileHandleCache::release).
void release() noexcept;

}  // namespace cholesky::cuda_blas
