// What `cholesky --kernels K` runs: the tile kernels of kind K ("opencl", "blas") for a
// device and an element type T (float or double), and the tile size each defaults to.
// Thread-safety: call from one thread.
#pragma once

#include <memory>
#include <string>

#include "tile_graph.hpp"

namespace cholesky {

// `requested`, or when it is 0 the default for `kind` on `device` (opencl: 128; blas: 256 on
// a CPU, 1024 on other devices: on an H100 at n 8192, 0.88 of cuSOLVER's
// on-device GFLOP/s at 1024 against 0.47 at 512), halved until it divides n.
std::size_t tile_size(const std::string& kind, const plexus::Device& device, std::size_t n,
                      std::size_t requested);

// The kernels of `kind` for `device` (the queue's; schedulers that place tasks elsewhere
// use the implementations each kind offers). plexus::error(unsupported) saying why when
// the device cannot run them (e.g. a vendor library is missing, or blas on an OpenCL device).
// `shape`: the OpenCL C kernels' shape (cholesky_shape.hpp: 0 from the device, 1 cpu, 2 gpu).
template <class T>
std::unique_ptr<TileKernels<T>> make_tile_kernels(const std::string& kind, plexus::Runtime& runtime,
                                                  plexus::Device& device, const TileLayout& layout,
                                                  std::size_t shape = 0);

}  // namespace cholesky
