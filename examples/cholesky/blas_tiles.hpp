// BlasTiles<T>: every tile operation as a native task (plexus::Handler::native_task) over
// a matrix of T (float or double: the single- or double-precision routines; the precision
// travels in the call's arguments) with one
// implementation per backend, as a StarPU codelet has: "host" (host_blas: OpenBLAS/LAPACKE,
// one thread per task, so a host device runs several at once) and "cuda" (cuda_blas:
// cuBLAS/cuSOLVER enqueued on the chosen queue's stream), both registered native functions
// (native_tiles.hpp), so that they run on other nodes' devices too. The scheduler picks the
// device, and with it the implementation. An implementation is offered only where it can
// run: host when the build found OpenBLAS; cuda when the build had the CUDA headers and the
// runtime has a CUDA device. This process loads cuBLAS/cuSOLVER only for a CUDA device of
// its own (a remote one's worker loads them itself, and a task there fails naming the
// library it lacks).
// Ownership: the CUDA handles its tiles made in this process are destroyed with it
// (cuda_blas::release: once their work is done). Thread-safety: record() from the
// submitting thread; the implementations run on scheduler threads, several at once.
#pragma once

#include <string>

#include "tile_graph.hpp"

namespace cholesky {

template <class T>
class BlasTiles final : public TileKernels<T> {
 public:
  BlasTiles(const plexus::Runtime& runtime, const TileLayout& layout);
  ~BlasTiles() override;

  // plexus::error(unsupported) saying why, when `device` has no implementation here (which
  // library is missing and how to get it, or that its backend has none).
  void require(const plexus::Device& device) const;

  std::string describe() const override;
  void record(plexus::Handler& h, const TileOp& op, std::size_t step,
              const plexus::Accessor<T, 2>& target) override;
  // A native task "resident" (nothing to do: every backend's implementation is empty).
  void record_resident(plexus::Handler& h, const plexus::Accessor<T, 2>& data) const override;

 private:
  TileLayout layout_;
  bool cuda_ = false;             // the cuda implementation is offered
  bool remote_cuda_ = false;      // a CUDA device of another process (its worker loads the libraries)
  std::string cuda_libraries_;    // loaded here for a CUDA device of this process
  std::string cuda_missing_;      // why there is no cuda implementation, or (cuda_) why this
                                  // process's CUDA devices cannot run it
};

}  // namespace cholesky
