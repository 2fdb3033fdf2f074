// The right-looking tiled Cholesky factorisation A = L * L^T (lower) as a task graph over one
// buffer with per-tile accesses: for each k, POTRF of the diagonal tile (k, k), TRSM of the
// panel tiles (i, k) below it, then SYRK of the diagonal tiles (i, i) and GEMM of the tiles
// (i, j), j < i, of the trailing matrix. The memory model finds the dependencies from the
// accesses; an out-of-order queue lets the scheduler run independent tiles at once.
//
// The matrix is row-major n x n elements of type T (float or double: precision.hpp); a tile
// is `tile` x `tile` and is named by its tile row and column. TileKernels<T> says how one
// tile operation is carried out (OpenCL C kernels, native tasks over BLAS):
// submit_factorisation declares the accesses and asks it to add the commands. The templates
// are instantiated for float and double. Thread-safety: one thread submits.
#pragma once

#include <cstddef>
#include <string>

#include <plexus/plexus.hpp>

namespace cholesky {

enum class TileKind { potrf, trsm, syrk, gemm };

// The tile (i, j) that the operation updates, and the step k:
//   potrf: L(k,k) = chol(A(k,k))                  i = j = k
//   trsm:  A(i,k) = A(i,k) * L(k,k)^-T            j = k
//   syrk:  A(i,i) -= A(i,k) * A(i,k)^T (lower)    j = i
//   gemm:  A(i,j) -= A(i,k) * A(j,k)^T            k < j < i
struct TileOp {
  TileKind kind;
  std::size_t i, j, k;
};

const char* name(TileKind kind);  // "potrf", ...
// "trsm of tile (2, 0) at step 0": the operation, for errors.
std::string describe(const TileOp& op);

// "<routine> of tile (k, k): info N (the leading minor of that order is not positive
// definite)" for a POTRF that reported info != 0.
std::string potrf_failure(const char* routine, std::size_t k, int info);

// Element offsets of tiles in the row-major n x n matrix (leading dimension n).
struct TileLayout {
  std::size_t n = 0, tile = 0;
  std::size_t offset(std::size_t row, std::size_t col) const { return (row * n + col) * tile; }
};

template <class T>
class TileKernels {
 public:
  virtual ~TileKernels() = default;
  // For the demo's output: "opencl", "blas (...)".
  virtual std::string describe() const = 0;
  // How many commands `op` takes (each a command group with the same accesses, in order):
  // 1 unless the kernels split a tile operation into steps.
  virtual std::size_t steps(const TileOp& op) const {
    (void)op;
    return 1;
  }
  // Adds to `h` command `step` of `op`: `target` is the read_write access of tile
  // (op.i, op.j); the tiles it reads are declared already (read accesses of the same group).
  virtual void record(plexus::Handler& h, const TileOp& op, std::size_t step,
                      const plexus::Accessor<T, 2>& target) = 0;
  // A command that does nothing on the device the scheduler picks but has `data`'s range
  // made valid there: the benchmarks' "data already on the device".
  virtual void record_resident(plexus::Handler& h, const plexus::Accessor<T, 2>& data) const = 0;
};

// Submits the whole factorisation of `a` (n x n, n a multiple of layout.tile) to `queue`;
// returns the number of tasks. Does not wait.
template <class T>
std::size_t submit_factorisation(plexus::Queue& queue, plexus::Buffer<T, 2>& a,
                                 const TileLayout& layout, TileKernels<T>& kernels);

}  // namespace cholesky
