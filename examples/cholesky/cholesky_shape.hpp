// How the Cholesky tile kernels (cholesky_kernels.cl) are built and launched on a device:
// the build options and the nd-range of each kernel. Two shapes of the same kernels:
//   cpu: barrier-free, no __local memory, each work-item a register block (4 x 2 outputs of
//        gemm/syrk, 4 rows of trsm, the whole tile for potrf). Caches do the tiling; a
//        host-backend work-group is a plain loop and a CPU thread runs whole groups.
//   gpu: work-groups of 16 x 16 threads tile gemm/syrk in 64 x 64 output blocks through
//        __local memory (4 x 4 outputs a thread); trsm is a thread a row, 32 rows a group;
//        potrf is one group of 256 threads. A GPU needs thousands of threads in flight and
//        its registers and __local memory are what feed it.
// The shape follows the device's type (a GPU: gpu, anything else: cpu); `--shape` forces one
// (the GPU shape runs, and is verified, on CPUs too). Plain values; thread-safe as values.
#pragma once

#include <cstddef>
#include <string>

#include <plexus/plexus.hpp>

namespace examples {

enum class CholeskyShape { from_device = 0, cpu = 1, gpu = 2 };

struct CholeskyLaunch {
  std::string options;    // build options: -DTILE=..., -DSHAPE_GPU for the GPU shape
  plexus::NdRange potrf;  // potrf(a, n, k)
  plexus::NdRange trsm;   // trsm(a, n, i, k)
  plexus::NdRange update;  // syrk(a, n, i, k) and gemm(a, n, i, j, k)
};

inline CholeskyLaunch cholesky_launch(const plexus::DeviceInfo& device, std::size_t tile,
                                      CholeskyShape shape) {
  const auto blocks = [](std::size_t extent, std::size_t block) { return (extent + block - 1) / block; };
  if (shape == CholeskyShape::from_device)
    shape = device.type == plexus::DeviceType::gpu ? CholeskyShape::gpu : CholeskyShape::cpu;
  CholeskyLaunch launch;
  launch.options = "-DTILE=" + std::to_string(tile);
  if (shape == CholeskyShape::gpu) {
    launch.options += " -DSHAPE_GPU";
    launch.potrf = plexus::nd_range(plexus::Range{256}, plexus::Range{256});
    launch.trsm = plexus::nd_range(plexus::Range{blocks(tile, 32) * 32}, plexus::Range{32});
    const std::size_t side = blocks(tile, 64) * 16;
    launch.update = plexus::nd_range(plexus::Range{side, side}, plexus::Range{16, 16});
    return launch;
  }
  // cpu: a group of trsm is one work-item (4 rows), so the device's threads share a tile's
  // rows; a group of gemm/syrk is one row of 4 x 2 blocks (the same 4 rows of the left
  // operand, in cache, against every column of the right one).
  const std::size_t columns = blocks(tile, 2), rows = blocks(tile, 4);
  std::size_t group = columns;
  while (group > 1 && ((device.max_work_group_size != 0 && group > device.max_work_group_size) ||
                        columns % group != 0)) --group;
  launch.potrf = plexus::nd_range(plexus::Range{1}, plexus::Range{1});
  launch.trsm = plexus::nd_range(plexus::Range{rows}, plexus::Range{1});
  launch.update = plexus::nd_range(plexus::Range{columns, rows}, plexus::Range{group, 1});
  return launch;
}

}  // namespace examples
