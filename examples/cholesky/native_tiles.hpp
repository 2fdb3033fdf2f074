// The implementations of `--kernels blas` as registered native functions
// (plexus/native_function.hpp), in the shared library libplexus_cholesky_native.so: the
// cholesky program links it, and `plexus worker --native-library` loads it on every other
// rank of an MPI job, so that a tile task that the scheduler places on a remote device runs
// the same library call there (a closure could not go to another process):
//   host: OpenBLAS/LAPACKE (host_blas.hpp), where the build found them;
//   cuda: cuBLAS/cuSOLVER (cuda_blas.hpp), where the build had the CUDA headers; the process
//         that runs a tile loads the libraries and makes its handles on first use.
//
//   mpirun -np 1 cholesky --kernels blas
//          : -np 2 plexus worker --backends host,cuda --native-library build/lib/libplexus_cholesky_native.so
//   (one command line)
//
// Thread-safety: the functions run on any number of threads at once (host_blas.hpp,
// cuda_blas.hpp).
#pragma once

#include <cstddef>

#include <plexus/native_function.hpp>

#include "precision.hpp"
#include "tile_graph.hpp"

namespace cholesky {

// One tile operation over the memory of accessor `target` (the whole matrix's buffer: the
// tiles it reads are accessors of the same task), whose elements are of `precision` (the
// single- or double-precision library routines run). A call whose operation, layout,
// accessor index or precision is not one of a factorisation fails its task (plexus::error
// invalid_argument), as does a POTRF that reports info != 0 (potrf_failure: the tile).
struct TileCall {
  TileOp op;
  TileLayout layout;
  std::size_t target;  // the target tile's accessor index in its command group
  Precision precision = Precision::double_;
};
// Nothing: the benchmarks' "data already on the device" (TileKernels::record_resident).
struct NoArguments {};

// host_blas::run
extern const plexus::NativeFunction<TileCall> host_tile;          // "cholesky.host_tile"
extern const plexus::NativeFunction<NoArguments> host_resident;   // "cholesky.host_resident"

#if PLEXUS_EXAMPLES_HAVE_CUDA
// cuda_blas::enqueue on the task's stream (asynchronous but for POTRF).
extern const plexus::NativeFunction<TileCall> cuda_tile;          // "cholesky.cuda_tile"
extern const plexus::NativeFunction<NoArguments> cuda_resident;   // "cholesky.cuda_resident"
#endif

}  // namespace cholesky
