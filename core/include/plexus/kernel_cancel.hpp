// Cancellable kernels (`cancel = "work_group"` of the compiler components): the cell a
// cancellable kernel reads its cancel request from. Shared by the compiler components
// (compiler_shared/cancel_points, which make each work-group read it before it does any
// work) and the backends that load SPIR code (backends/opencl passes one per launch and
// sets it on TaskEvent::cancel).
//
// A cancellable kernel (KernelInfo::cancellable) takes one parameter more than
// KernelInfo::args lists: the very last, a __global pointer to this cell, which the backend
// passes (neither the application nor the core gives it). Layout, native byte order:
//   u32 requested (0; the host stores 1 to cancel), u32 skipped (the work-groups that found
//   `requested` set and returned at once: each adds 1 with an atomic add).
// Work-item (0, 0, 0) of each work-group reads `requested` once (an atomic load) into
// __local memory; a work-group barrier follows; then every work-item of the group returns
// at once when it was set: the return is uniform per work-group, so kernels with barriers
// stay correct. A launch whose `skipped` is above 0 once it has finished was cancelled;
// with 0 it ran to its end (the request came too late).
// Plain constants; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plexus::kernel_cancel {

inline constexpr const char* parameter_name = "__plexus_cancel";
// Word offsets in the cell (u32 words), and the bytes a backend gives each cell (a cache
// line: cells of concurrent launches never share one).
inline constexpr std::size_t requested_word = 0, skipped_word = 1;
inline constexpr std::size_t cell_bytes = 64;

}  // namespace plexus::kernel_cancel
