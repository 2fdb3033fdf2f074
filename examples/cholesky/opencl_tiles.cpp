#include "opencl_tiles.hpp"

#include <string>

#include "cholesky_kernels.hpp"
#include "gpu_tile_steps.hpp"

namespace cholesky {

namespace {

std::vector<plexus::Kernel> shape_kernels(const plexus::KernelBundle& bundle,
                                          examples::CholeskyShape shape) {
  std::vector<plexus::Kernel> kernels;
  const auto names = shape == examples::CholeskyShape::gpu
                         ? std::vector<const char*>{"factor", "solve", "update"}
                         : std::vector<const char*>{"potrf", "trsm", "syrk", "gemm"};
  for (const char* name : names) kernels.push_back(bundle.kernel(name));
  return kernels;
}

}  // namespace

template <class T>
OpenClTiles<T>::OpenClTiles(plexus::Runtime& runtime, const plexus::Device& device,
                            const TileLayout& layout, examples::CholeskyShape shape)
    : layout_(layout),
      launch_(examples::cholesky_launch(device.info(), layout.tile, shape, precision_of<T>)),
      bundle_(runtime.build(examples::cholesky_kernels, launch_.options)),
      kernels_(shape_kernels(bundle_, launch_.shape)),
      resident_(bundle_.kernel("resident")) {}

template <class T>
std::string OpenClTiles<T>::describe() const {
  return launch_.shape == examples::CholeskyShape::gpu ? "opencl (gpu shape)" : "opencl (cpu shape)";
}

template <class T>
std::size_t OpenClTiles<T>::steps(const TileOp& op) const {
  if (launch_.shape != examples::CholeskyShape::gpu) return 1;
  return gpu_tile_steps(op, layout_, launch_.panel).size();
}

template <class T>
void OpenClTiles<T>::record(plexus::Handler& h, const TileOp& op, std::size_t step,
                            const plexus::Accessor<T, 2>& target) {
  if (launch_.shape == examples::CholeskyShape::gpu) return record_gpu(h, op, step, target);
  const int n = static_cast<int>(layout_.n), i = static_cast<int>(op.i),
            j = static_cast<int>(op.j), k = static_cast<int>(op.k);
  switch (op.kind) {
    case TileKind::potrf:
      h.parallel_for(kernels_[0], launch_.potrf, target, n, k);
      break;
    case TileKind::trsm:
      h.parallel_for(kernels_[1], launch_.trsm, target, n, i, k);
      break;
    case TileKind::syrk:
      h.parallel_for(kernels_[2], launch_.update, target, n, i, k);
      break;
    case TileKind::gemm:
      h.parallel_for(kernels_[3], launch_.update, target, n, i, j, k);
      break;
  }
}

template <class T>
void OpenClTiles<T>::record_gpu(plexus::Handler& h, const TileOp& op, std::size_t step,
                                const plexus::Accessor<T, 2>& target) const {
  const GpuStep s = gpu_tile_steps(op, layout_, launch_.panel).at(step);
  const int n = static_cast<int>(layout_.n);
  const std::size_t panel = launch_.panel, side = launch_.update_side, block = launch_.update_block();
  switch (s.kernel) {
    case GpuKernel::factor:
      h.parallel_for(kernels_[0], plexus::nd_range(plexus::Range{panel}, plexus::Range{panel}),
                     target, n, s.c, s.w);
      break;
    case GpuKernel::solve: {
      const std::size_t rows = examples::blocks_of(std::size_t(s.rows), panel) * panel;
      h.parallel_for(kernels_[1], plexus::nd_range(plexus::Range{rows}, plexus::Range{panel}),
                     target, n, s.c, s.w, s.r0, s.rows);
      break;
    }
    case GpuKernel::update: {
      const plexus::Range<2> global{examples::blocks_of(std::size_t(s.cols), block) * side,
                                    examples::blocks_of(std::size_t(s.rows), block) * side};
      h.parallel_for(kernels_[2], plexus::nd_range(global, plexus::Range{side, side}), target, n,
                     s.r0, s.c0, s.rows, s.cols, s.d0, s.depth, s.lower);
      break;
    }
  }
}

template <class T>
void OpenClTiles<T>::record_resident(plexus::Handler& h, const plexus::Accessor<T, 2>& data) const {
  h.parallel_for(resident_, plexus::nd_range(plexus::Range{1}, plexus::Range{1}), data);
}

template class OpenClTiles<float>;
template class OpenClTiles<double>;

}  // namespace cholesky
