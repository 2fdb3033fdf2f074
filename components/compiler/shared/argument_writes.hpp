// ArgumentWrites: whether a kernel stores through one of its pointer parameters, read from
// the kernel's code (KernelArgInfo::written). "Stores" means a definite store found: a
// store, an atomic read-modify-write or compare-exchange, the destination of a memset or
// memcpy, or an OpenCL builtin that writes through its pointer (vstore*, atomic_*/atom_*
// but atomic_load, async_work_group_copy's destination, fract/modf/sincos/frexp/lgamma_r/
// remquo's result pointer), through casts, GEPs, phis, selects, calls of functions the
// module defines and private variables that hold the pointer (-cl-opt-disable code).
// A const-qualified parameter is never written this way (Clang refuses the store), while a
// parameter that is not const is often only read: so the code, not the qualifier, decides.
//
// Thread-safety: stateless; only reads the module.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace llvm {
class Argument;
}  // namespace llvm

namespace plexus::compiler_shared {

bool stores_through(const llvm::Argument& parameter);

// The name of an Itanium-mangled function (_Z6vstore4...: "vstore4"), or the name itself.
llvm::StringRef builtin_name(llvm::StringRef mangled);

}  // namespace plexus::compiler_shared
