// OpenClTiles<T>: the tile operations as the demo's OpenCL C kernels (cholesky_kernels.cl),
// built once for the tile size and the element type T (float or double) in the shape chosen
// for the device (cholesky_shape.hpp);
// every backend with a compiler target runs them. In the CPU shape a tile operation is one
// launch; in the GPU shape potrf and trsm are chains of steps (gpu_tile_steps.hpp).
// Thread-safety: steps() and record() from the submitting thread.
#pragma once

#include <vector>

#include "cholesky_shape.hpp"
#include "tile_graph.hpp"

namespace cholesky {

template <class T>
class OpenClTiles final : public TileKernels<T> {
 public:
  OpenClTiles(plexus::Runtime& runtime, const plexus::Device& device, const TileLayout& layout,
              examples::CholeskyShape shape);
  std::string describe() const override;
  std::size_t steps(const TileOp& op) const override;
  void record(plexus::Handler& h, const TileOp& op, std::size_t step,
              const plexus::Accessor<T, 2>& target) override;
  void record_resident(plexus::Handler& h, const plexus::Accessor<T, 2>& data) const override;

 private:
  void record_gpu(plexus::Handler& h, const TileOp& op, std::size_t step,
                  const plexus::Accessor<T, 2>& target) const;

  TileLayout layout_;
  examples::CholeskyLaunch launch_;
  plexus::KernelBundle bundle_;
  // cpu shape: potrf, trsm, syrk, gemm; gpu shape: factor, solve, update.
  std::vector<plexus::Kernel> kernels_;
  plexus::Kernel resident_;
};

}  // namespace cholesky
