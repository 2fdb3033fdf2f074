// How the Cholesky tile kernels (cholesky_kernels.cl) are built and launched on a device.
// Two shapes of the kernels:
//   cpu: potrf, trsm, syrk and gemm, one barrier-free launch per tile operation, no __local
//        memory, each work-item a register block (4 x 2 outputs of gemm/syrk, 4 rows of
//        trsm, the whole tile for potrf). Caches do the tiling; a host-backend work-group is
//        a plain loop and a CPU thread runs whole groups.
//   gpu: update, factor and solve (gpu_tile_steps.hpp): gemm/syrk one update in 64 x 64
//        output blocks per 16 x 16 work-group through __local memory; potrf and trsm a chain
//        of steps by panels of 64 columns, each step wide. A GPU needs thousands of threads
//        in flight and its registers and __local memory are what feed it.
// The shape follows the device's type (a GPU: gpu, anything else: cpu); `--shape` forces one
// (the GPU shape runs, and is verified, on CPUs too). The element type is a build option too
// (-DPRECISION_SINGLE for float; the launches are the same). Plain values; thread-safe as
// values.
#pragma once

#include <cstddef>
#include <string>

#include <plexus/plexus.hpp>

#include "precision.hpp"

namespace examples {

enum class CholeskyShape { from_device = 0, cpu = 1, gpu = 2 };

struct CholeskyLaunch {
  CholeskyShape shape = CholeskyShape::cpu;  // resolved: cpu or gpu
  std::string options;  // build options: -DTILE=..., -DSHAPE_GPU -DPB=... for the GPU shape,
                        // -DPRECISION_SINGLE for float elements
  // cpu shape: one launch per tile operation.
  plexus::NdRange potrf;   // potrf(a, n, k)
  plexus::NdRange trsm;    // trsm(a, n, i, k)
  plexus::NdRange update;  // syrk(a, n, i, k) and gemm(a, n, i, j, k)
  // gpu shape, passed to the kernels as build options: the panel width of potrf and trsm
  // steps (PB), and the outputs per thread per side of an update (GW); an update work-group
  // is update_side x update_side threads (the kernels' GT) and covers update_block() outputs
  // per side.
  std::size_t panel = 64, per_thread = 4;
  static constexpr std::size_t update_side = 16;
  std::size_t update_block() const { return update_side * per_thread; }
};

inline std::size_t blocks_of(std::size_t extent, std::size_t block) { return (extent + block - 1) / block; }

inline CholeskyLaunch cholesky_launch(
    const plexus::DeviceInfo& device, std::size_t tile, CholeskyShape shape,
    cholesky::Precision precision = cholesky::Precision::double_) {
  if (shape == CholeskyShape::from_device)
    shape = device.type == plexus::DeviceType::gpu ? CholeskyShape::gpu : CholeskyShape::cpu;
  CholeskyLaunch launch;
  launch.shape = shape;
  launch.options = "-DTILE=" + std::to_string(tile);
  if (precision == cholesky::Precision::single) launch.options += " -DPRECISION_SINGLE";
  if (shape == CholeskyShape::gpu) {
    launch.options += " -DSHAPE_GPU -DPB=" + std::to_string(launch.panel) +
                      " -DGW=" + std::to_string(launch.per_thread);
    return launch;
  }
  // cpu: a group of trsm is one work-item (4 rows), so the device's threads share a tile's
  // rows; a group of gemm/syrk is one row of 4 x 2 blocks (the same 4 rows of the left
  // operand, in cache, against every column of the right one).
  const std::size_t columns = blocks_of(tile, 2), rows = blocks_of(tile, 4);
  std::size_t group = columns;
  while (group > 1 && ((device.max_work_group_size != 0 && group > device.max_work_group_size) ||
                        columns % group != 0)) --group;
  launch.potrf = plexus::nd_range(plexus::Range{1}, plexus::Range{1});
  launch.trsm = plexus::nd_range(plexus::Range{rows}, plexus::Range{1});
  launch.update = plexus::nd_range(plexus::Range{columns, rows}, plexus::Range{group, 1});
  return launch;
}

}  // namespace examples
