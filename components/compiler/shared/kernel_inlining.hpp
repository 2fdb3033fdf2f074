// inline_users_into_kernels: every function (not a kernel) with an instruction that uses one
// of `values` (directly or through constant expressions), and every function that calls one
// of those, transitively, is inlined into its callers, so that only kernels use the values.
// For passes that give each kernel something of its own: local variables
// (kernel_local_variables.hpp), the SYCL work-group scratch (sycl_work_group_scratch.hpp).
// Thread-safety: stateless; changes only `module`.
#pragma once

#include <llvm/ADT/SmallPtrSet.h>

#include <vector>

namespace llvm {
class Function;
class Module;
class Value;
}  // namespace llvm

namespace plexus::compiler_shared {

// Adds to `functions` those with an instruction that uses `value`, directly or through
// constant expressions.
void add_user_functions(llvm::Value* value, llvm::SmallPtrSetImpl<llvm::Function*>& functions);

// True when it inlined something.
bool inline_users_into_kernels(llvm::Module& module, const std::vector<llvm::Value*>& values);

}  // namespace plexus::compiler_shared
