// move_work_group_statics: SYCL's work_group_static variables (sycl_include/sycl/plexus/
// local_memory.hpp) into work-group local memory, on the frontend's module of a SYCL
// source (SyclSource::finish). C++ for OpenCL compiles them as program-scope variables in
// the global address space; here every global of the class's type becomes an internal,
// uninitialised variable of the local address space (3 on every target Plexus compiles
// for: SPIR, NVPTX, AMDGCN and the host's fake address-space map), which each target then
// allocates per work-group like a kernel's own __local variable. The accessors' opaque
// identity (__plexus_sycl_work_group_static) is replaced by its argument.
//
// A work_group_static with automatic storage (a plain local variable of a function) or
// inside another global object is an error in `log` naming the function that uses it. Thread-safety: stateless.
#pragma once

#include "diagnostic_log.hpp"

namespace llvm {
class Module;
}

namespace plexus::compiler_shared {

// False (errors in `log`) when a work_group_static is not a global.
bool move_work_group_statics(llvm::Module& module, DiagnosticLog& log);

}  // namespace plexus::compiler_shared
