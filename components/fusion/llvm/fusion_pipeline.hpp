// FusionPipeline: the fusion passes in the seed's order over a module made by link_inputs():
// fuse (FuseKernelsPass), inline (AlwaysInliner), the clean-up that removes generic
// pointers (SROA, EarlyCSE, InstCombine, SimplifyCFG, InferAddressSpaces, IndVarSimplify,
// LoopUnroll), internalization (InternalizePass), constant propagation
// (ConstantArgumentsPass), the fused kernel's final signature (DropParametersPass), then
// everything but the fused kernel internalized and the O3 pipeline.
// Not thread-safe for one module; separate modules may be processed concurrently.
#pragma once

#include <llvm/IR/Module.h>

#include <cstddef>
#include <string>
#include <vector>

#include "fusion_plan.hpp"

namespace plexus::fusion_llvm {

struct PipelineOutcome {
  std::vector<std::size_t> kept;       // planned arguments that remain parameters, in order
  std::vector<std::string> refusals;   // promotions and constants not done, with the reason
};

// Throws plexus::error(internal) when the result is not valid IR.
PipelineOutcome run_fusion_pipeline(llvm::Module& module, const FusionPlan& plan,
                                    FusionBarrier barrier, const std::string& fused_name);

}  // namespace plexus::fusion_llvm
