// BlasTiles: every tile operation as a native task (plexus::Handler::native_task) with one
// implementation per backend, as a StarPU codelet has: "host" (host_blas: OpenBLAS/LAPACKE,
// one thread per task, so a host device runs several at once; a registered native function,
// native_tiles.hpp, so that it runs on other nodes' host devices too) and "cuda" (cuda_blas:
// cuBLAS/cuSOLVER enqueued on the chosen queue's stream). The scheduler picks the device,
// and with it the implementation. An implementation is offered only where its libraries
// are there: host when the build found OpenBLAS, cuda when the runtime has a CUDA device and
// cuBLAS/cuSOLVER load.
// Ownership: must be destroyed before the Runtime whose tasks it records (its cuBLAS and
// cuSOLVER handles belong to the runtime's CUDA contexts). Thread-safety: record() from the
// submitting thread; the implementations run on scheduler threads, several at once.
#pragma once

#include <memory>
#include <string>

#include "tile_graph.hpp"

namespace cholesky {

class CudaBlas;

class BlasTiles final : public TileKernels {
 public:
  BlasTiles(const plexus::Runtime& runtime, const TileLayout& layout);
  ~BlasTiles() override;

  // plexus::error(unsupported) saying why, when `device` has no implementation here (which
  // library is missing and how to get it, or that its backend has none).
  void require(const plexus::Device& device) const;

  std::string describe() const override;
  std::string failure() const override;
  void record(plexus::Handler& h, const TileOp& op, std::size_t step,
              const plexus::Accessor<double, 2>& target) override;
  // A native task "resident" (nothing to do: every backend's implementation is empty).
  void record_resident(plexus::Handler& h, const plexus::Accessor<double, 2>& data) const override;

 private:
  TileLayout layout_;
  std::string cuda_missing_;        // why there is no CUDA implementation
  std::unique_ptr<CudaBlas> cuda_;  // nullptr: none
};

}  // namespace cholesky
