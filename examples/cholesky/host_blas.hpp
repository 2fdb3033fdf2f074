// The tile operations on the CPU with OpenBLAS and LAPACKE, one thread per call (so that a
// host device runs several tile tasks at once, one per core, as StarPU does): cblas_dtrsm,
// cblas_dsyrk, cblas_dgemm and LAPACKE_dpotrf_work on the row-major matrix in place
// (leading dimension n). Built with OpenBLAS when CMake found it (libopenblas-dev,
// liblapacke-dev); otherwise available() is false and run() throws, saying what to install.
// Thread-safety: run() from any number of threads at once (each call is single-threaded).
#pragma once

#include <string>

#include "tile_graph.hpp"

namespace cholesky::host_blas {

bool available();
// Why available() is false ("" when it is true).
std::string unavailable_reason();

// Runs `op` on the matrix `a` (its first element); returns 0, or POTRF's LAPACK info (> 0:
// the leading minor of that order of tile (k, k) is not positive definite).
int run(const TileOp& op, const TileLayout& layout, double* a);

}  // namespace cholesky::host_blas
