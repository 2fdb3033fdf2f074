// OpenClTiles: the tile operations as the demo's OpenCL C kernels (cholesky_kernels.cl),
// built once for the tile size in the shape chosen for the device (cholesky_shape.hpp);
// every backend with a compiler target runs them.
// Thread-safety: record() from the submitting thread.
#pragma once

#include "cholesky_shape.hpp"
#include "tile_graph.hpp"

namespace cholesky {

class OpenClTiles final : public TileKernels {
 public:
  OpenClTiles(plexus::Runtime& runtime, const plexus::Device& device, const TileLayout& layout,
              examples::CholeskyShape shape);
  std::string describe() const override { return "opencl"; }
  void record(plexus::Handler& h, const TileOp& op,
              const plexus::Accessor<double, 2>& target) override;

 private:
  TileLayout layout_;
  examples::CholeskyLaunch launch_;
  plexus::KernelBundle bundle_;
  plexus::Kernel potrf_, trsm_, syrk_, gemm_;
};

}  // namespace cholesky
