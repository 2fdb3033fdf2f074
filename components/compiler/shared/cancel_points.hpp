// CancelPoints: cancellable kernels (`cancel = "work_group"`, plexus/kernel_cancel.hpp) for
// SPIR targets (SPIR-V and SPIR bitcode, which OpenCL drivers such as PoCL load): a driver
// offers no way to stop a kernel that runs, so the kernel stops itself. Every kernel of the
// module gets a last, hidden parameter, the cancel cell, and a prologue before its code:
// work-item (0, 0, 0) of the work-group loads the cell's `requested` word (atomic,
// monotonic) into a __local variable of the kernel and, when it is set, adds 1 to the
// cell's `skipped` word; a barrier(CLK_LOCAL_MEM_FENCE) follows; every work-item then
// returns at once when the __local copy is set, else runs the kernel. The return is the
// same for the whole work-group, so kernels that use barriers stay correct.
//
// Run on the frontend's module after KernelInspector (and after add_bounds_checks: the
// cell comes after the check record), only for SPIR targets and not for emit_ir: `kernels`
// (the inspector's result) get KernelInfo::cancellable; their `args` stay as they are (the
// cell is not listed). A kernel that is cancellable already (its last parameter is the
// cell: a SPIR-V input this pass made) is left as it is; a kernel that another kernel calls
// is left without the cell (its callers pass no such argument), with a warning in `log`.
// Thread-safety: stateless; changes only the module it is given.
#pragma once

#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/binary_format.hpp"
#include "plexus/component_options.hpp"
#include "plexus/kernel_info.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

void add_cancel_points(llvm::Module& module, std::vector<KernelInfo>& kernels, DiagnosticLog& log);

// Whether the pass applies to `format`: spirv and spir_bitcode.
bool takes_cancel_points(BinaryFormat format);

// Whether a compiler component builds cancellable kernels: PLEXUS_KERNEL_CANCEL (1 or
// work_group: on, 0 or none: off) when set, else its `cancel` option ("none", the default,
// or "work_group"). Another value is a plexus::error(config).
bool cancel_points_enabled(const ComponentOptions& options);

}  // namespace plexus::compiler_shared
