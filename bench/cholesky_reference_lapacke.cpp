#include <chrono>

#include <plexus/error.hpp>

#include "cholesky_reference.hpp"

#if PLEXUS_EXAMPLES_HAVE_OPENBLAS
#include <cblas.h>
#include <lapacke.h>
#endif

namespace bench {

#if PLEXUS_EXAMPLES_HAVE_OPENBLAS

bool LapackeReference::available() { return true; }

std::string LapackeReference::describe() {
  return std::string(openblas_get_config()) + ", " + std::to_string(openblas_get_num_procs()) +
         " threads";
}

double LapackeReference::run(std::vector<double>& matrix, std::size_t n) {
  openblas_set_num_threads(openblas_get_num_procs());  // the tile tasks set 1 per call
  const int size = static_cast<int>(n);
  const auto start = std::chrono::steady_clock::now();
  const int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', size, matrix.data(), size);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (info != 0)
    throw plexus::error(plexus::error_category::device,
                        "LAPACKE_dpotrf: info " + std::to_string(info));
  return seconds;
}

#else

bool LapackeReference::available() { return false; }
std::string LapackeReference::describe() { return "no OpenBLAS/LAPACKE in this build"; }
double LapackeReference::run(std::vector<double>&, std::size_t) {
  throw plexus::error(plexus::error_category::unsupported,
                      "this build has no OpenBLAS/LAPACKE: install libopenblas-dev "
                      "liblapacke-dev and reconfigure");
}

#endif

}  // namespace bench
