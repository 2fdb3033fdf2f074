// The host implementations of `--kernels blas` as registered native functions
// (plexus/native_function.hpp), in the shared library libplexus_cholesky_native.so: the
// cholesky program links it, and `plexus worker --native-library` loads it on every other
// rank of an MPI job, so that a tile task that the scheduler places on a remote host device
// runs the same OpenBLAS call there (a closure could not go to another process).
//
//   mpirun -np 1 cholesky --kernels blas
//          : -np 2 plexus worker --backends host --native-library build/lib/libplexus_cholesky_native.so
//   (one command line)
//
// Thread-safety: the functions run on any number of threads at once (host_blas.hpp).
#pragma once

#include <cstddef>

#include <plexus/native_function.hpp>

#include "tile_graph.hpp"

namespace cholesky {

// One tile operation: host_blas::run(op, layout, the memory of accessor `target`) (the
// whole matrix's buffer: the tiles it reads are accessors of the same task). A POTRF that
// reports info != 0 fails the task (potrf_failure).
struct HostTileCall {
  TileOp op;
  TileLayout layout;
  std::size_t target;  // the target tile's accessor index in its command group
};
extern const plexus::NativeFunction<HostTileCall> host_tile;  // "cholesky.host_tile"

// Nothing: the benchmarks' "data already on the device" (TileKernels::record_resident).
struct NoArguments {};
extern const plexus::NativeFunction<NoArguments> host_resident;  // "cholesky.host_resident"

}  // namespace cholesky
