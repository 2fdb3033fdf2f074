// BoundsChecks: the instrumentation of checked kernels (`checks = "bounds"`). Every kernel
// of the module gets a last, hidden parameter, the check record (plexus/kernel_checks.hpp),
// and every load, store, atomic and memset/memcpy of __global, __constant or __local memory
// that comes from a pointer parameter (or a __local variable of the kernel) is checked
// against that parameter's bounds first: outside them, or a store where the parameter is
// not writable, records the first violation (parameter, offset, size, kind, global id) and
// skips the access (a load gives 0). Functions the kernels call are inlined first and
// private variables promoted, so -cl-opt-disable code is traced too; an access whose
// pointer comes from nowhere known (loaded from memory) is left unchecked, and a note in
// the log counts them.
//
// Run on the frontend's module before device libraries are linked (get_global_id is still
// a call), after KernelInspector: `kernels` (its result) gets the hidden parameter and
// bounds_checked. Returns false, with an error in `log`, when a kernel cannot be
// instrumented (a kernel called by another).
// Thread-safety: stateless; changes only the module it is given.
#pragma once

#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/component_options.hpp"
#include "plexus/kernel_info.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

bool add_bounds_checks(llvm::Module& module, std::vector<KernelInfo>& kernels, DiagnosticLog& log);

// Whether a compiler component checks kernels: PLEXUS_KERNEL_CHECKS (1 or bounds: on, 0 or
// none: off) when set, else its `checks` option ("bounds" or "none", the default). Another
// value is a plexus::error(config).
bool bounds_checks_enabled(const ComponentOptions& options);

}  // namespace plexus::compiler_shared
