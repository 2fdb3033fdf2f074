// Work-item remapping for kernels fused with a different nd-range than their own: inside
// one input module (before it is linked into the fused module), calls to the OpenCL
// work-item functions are replaced by values of the kernel's own launch: global sizes,
// work dimensions, local sizes and group counts (when it has a local size) as constants,
// and global ids from the global linear id, which fusion keeps invariant
// (gid0 = L % G0, gid1 = (L / G0) % G1, gid2 = L / (G0 * G1)).
// Also the helpers the fused entry uses to read the fused launch's ids.
// Works on opaque and typed pointers. Not thread-safe for one module (LLVM IR).
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "fusion_plan.hpp"

namespace plexus::fusion_llvm {

// Whether `name` is one of the OpenCL work-item functions (mangled as clang mangles them).
bool is_work_item_function(llvm::StringRef name);

// A call of get_global_id(dimension) of the running launch, at the builder.
llvm::Value* launch_global_id(llvm::IRBuilderBase& builder, unsigned dimension);

// The global linear id of the running launch, whose nd-range is `fused` (offsets removed).
llvm::Value* launch_linear_id(llvm::IRBuilderBase& builder, const NdRange& fused);

// Replaces the work-item function calls of every function of `module` (except the
// work-item functions themselves) as `kernel` needs under the `fused` launch.
void remap_work_items(llvm::Module& module, const PlannedKernel& kernel, const NdRange& fused);

}  // namespace plexus::fusion_llvm
