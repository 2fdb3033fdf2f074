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

// The routines of element type T (float: the s ones, double: the d ones).
template <class T>
struct HostRoutines {
  static constexpr auto potrf = of_element<T>(&LAPACKE_spotrf_work, &LAPACKE_dpotrf_work);
  static constexpr auto trsm = of_element<T>(&cblas_strsm, &cblas_dtrsm);
  static constexpr auto syrk = of_element<T>(&cblas_ssyrk, &cblas_dsyrk);
  static constexpr auto gemm = of_element<T>(&cblas_sgemm, &cblas_dgemm);
};

}  // namespace

template <class T>
int run(const TileOp& op, const TileLayout& layout, T* a) {
  using R = HostRoutines<T>;
  one_thread_per_call();
  const int t = static_cast<int>(layout.tile), ld = static_cast<int>(layout.n);
  T* target = a + layout.offset(op.i, op.j);
  switch (op.kind) {
    case TileKind::potrf:
      // The row-major lower factor is the column-major upper one of the same memory (and
      // the column-major call transposes nothing, unlike LAPACK_ROW_MAJOR).
      return R::potrf(LAPACK_COL_MAJOR, 'U', t, target, ld);
    case TileKind::trsm:
      R::trsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, t, t, T(1),
              a + layout.offset(op.k, op.k), ld, target, ld);
      return 0;
    case TileKind::syrk:
      R::syrk(CblasRowMajor, CblasLower, CblasNoTrans, t, t, T(-1), a + layout.offset(op.i, op.k),
              ld, T(1), target, ld);
      return 0;
    case TileKind::gemm:
      R::gemm(CblasRowMajor, CblasNoTrans, CblasTrans, t, t, t, T(-1),
              a + layout.offset(op.i, op.k), ld, a + layout.offset(op.j, op.k), ld, T(1), target,
              ld);
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

template <class T>
int run(const TileOp& op, const TileLayout&, T*) {
  throw plexus::error(plexus::error_category::unsupported,
                      std::string("host ") + name(op.kind) + ": " + unavailable_reason());
}

#endif

template int run<float>(const TileOp&, const TileLayout&, float*);
template int run<double>(const TileOp&, const TileLayout&, double*);

}  // namespace cholesky::host_blas
