// The tile operations on the CPU with OpenBLAS and LAPACKE, one thread per call (so that a
// host device runs several tile tasks at once, one per core, as StarPU does): cblas_?trsm,
// cblas_?syrk, cblas_?gemm and LAPACKE_?potrf_work (s for float, d for double) on the
// row-major matrix in place (leading dimension n). Built with OpenBLAS when CMake found it
// (libopenblas-dev, liblapacke-dev); otherwise available() is false and run() throws, saying
// what to install.
// Thread-safety: run() from any number of threads at once (each call is single-threaded).
#pragma once

#include <string>

#include "precision.hpp"
#include "tile_graph.hpp"

namespace cholesky::host_blas {

bool available();
// Why available() is false ("" when it is true).
std::string unavailable_reason();

// Runs `op` on the matrix `a` (its first element) of T (float or double); returns 0, or
// POTRF's LAPACK info (> 0: the leading minor of that order of tile (k, k) is not positive
// definite).
template <class T>
int run(const TileOp& op, const TileLayout& layout, T* a);

// The POTRF routine run() calls for T, for its failure: "LAPACKE_spotrf", "LAPACKE_dpotrf".
template <class T>
constexpr const char* potrf_routine() {
  return of_element<T>("LAPACKE_spotrf", "LAPACKE_dpotrf");
}

}  // namespace cholesky::host_blas
