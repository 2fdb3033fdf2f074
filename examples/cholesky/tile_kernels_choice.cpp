#include "tile_kernels_choice.hpp"

#include "blas_tiles.hpp"
#include "opencl_tiles.hpp"

#include <algorithm>

namespace cholesky {

std::size_t tile_size(const std::string& kind, const plexus::Device& device, std::size_t n,
                      std::size_t requested) {
  if (requested != 0) return requested;
  std::size_t tile = kind == "opencl" ? 128 : device.info().type == plexus::DeviceType::cpu ? 256 : 1024;
  while (tile > 1 && n % tile != 0) tile /= 2;
  return tile;
}

template <class T>
std::unique_ptr<TileKernels<T>> make_tile_kernels(const std::string& kind, plexus::Runtime& runtime,
                                                  plexus::Device& device, const TileLayout& layout,
                                                  std::size_t shape) {
  if (kind == "opencl") {
    const auto chosen = static_cast<examples::CholeskyShape>(std::min<std::size_t>(shape, 2));
    return std::make_unique<OpenClTiles<T>>(runtime, device, layout, chosen);
  }
  auto blas = std::make_unique<BlasTiles<T>>(runtime, layout);
  blas->require(device);
  return blas;
}

template std::unique_ptr<TileKernels<float>> make_tile_kernels<float>(
    const std::string&, plexus::Runtime&, plexus::Device&, const TileLayout&, std::size_t);
template std::unique_ptr<TileKernels<double>> make_tile_kernels<double>(
    const std::string&, plexus::Runtime&, plexus::Device&, const TileLayout&, std::size_t);

}  // namespace cholesky
