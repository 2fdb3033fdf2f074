// The library calls a user would make instead of a tiled Cholesky on Plexus, for
// plexus-bench-cholesky-reference: LAPACKE_dpotrf with OpenBLAS on all cores, and
// cusolverDnDpotrf on a CUDA GPU (end to end from pageable host memory, and on data already
// on the device). Each factors the row-major matrix's lower triangle (the column-major upper
// one of the same memory: nothing is transposed) and throws when the library reports a
// failure (info != 0 names the routine). Thread-safety: one thread at a time.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench {

// LAPACKE_dpotrf on `matrix` (n x n) in place with every OpenBLAS thread; seconds.
// Without OpenBLAS in the build: available() false, run() throws.
struct LapackeReference {
  static bool available();
  static std::string describe();  // "OpenBLAS 0.3.21 ... (2 threads)"
  static double run(std::vector<double>& matrix, std::size_t n);
};

// cusolverDnDpotrf on CUDA device 0 (its primary context, the one Plexus uses), one stream.
class CusolverReference {
 public:
  explicit CusolverReference(std::size_t n);  // plexus::error when CUDA or a library is missing
  ~CusolverReference();
  CusolverReference(const CusolverReference&) = delete;
  CusolverReference& operator=(const CusolverReference&) = delete;

  std::string describe() const;
  // Copy `matrix` in (cuMemcpyHtoDAsync from its pageable memory), potrf, copy it back; the
  // seconds from the first copy's enqueue to the stream's end.
  double end_to_end(std::vector<double>& matrix);
  // Copy `matrix` in (not timed), then potrf alone: seconds from enqueue to the stream's end.
  // The factor is left on the device (fetch() copies it out).
  double on_device(const std::vector<double>& matrix);
  void fetch(std::vector<double>& matrix);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace bench
