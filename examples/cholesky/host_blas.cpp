#include "host_blas.hpp"

#include <plexus/error.hpp>

#if PLEXUS_EXAMPLES_HAVE_OPENBLAS
#include <cblas.h>
#include <lapacke.h>

#include <mutex>
#endif

namespace cholesky::host_blas {

#if PLEXUS_EXAMPLES_HAVE_OPENBLAS

bool available() { return true; }
std::string unavailable_reason() { return ""; }

namespace {

// OpenBLAS's thread count is process-wide: a call made while it is above 1 would spread
// over every core and compete with the tile tasks running beside it.
void one_thread_per_call() {
  if (openblas_get_num_threads() == 1) return;
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  openblas_set_num_threads(1);
}

}  // namespace

int run(const TileOp& op, const TileLayout& layout, double* a) {
  one_thread_per_call();
  const int t = static_cast<int>(layout.tile), ld = static_cast<int>(layout.n);
  double* target = a + layout.offset(op.i, op.j);
  switch (op.kind) {
    case TileKind::potrf:
      // The row-major lower factor is the column-major upper one of the same memory (and
      // the column-major call transposes nothing, unlike LAPACK_ROW_MAJOR).
      return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', t, target, ld);
    case TileKind::trsm:
      cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, t, t, 1.0,
                  a + layout.offset(op.k, op.k), ld, target, ld);
      return 0;
    case TileKind::syrk:
      cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, t, t, -1.0,
                  a + layout.offset(op.i, op.k), ld, 1.0, target, ld);
      return 0;
    case TileKind::gemm:
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, t, t, t, -1.0,
                  a + layout.offset(op.i, op.k), ld, a + layout.offset(op.j, op.k), ld, 1.0,
                  target, ld);
      return 0;
  }
  return 0;
}

#else

bool available() { return false; }
std::string unavailable_reason() {
  return "this build has no OpenBLAS/LAPACKE (CMake did not find them): install "
         "libopenblas-dev and liblapacke-dev (scripts/setup.sh) and reconfigure";
}

int run(const TileOp& op, const TileLayout&, double*) {
  throw plexus::error(plexus::error_category::unsupported,
                      std::string("host ") + name(op.kind) + ": " + unavailable_reason());
}

#endif

}  // namespace cholesky::host_blas
