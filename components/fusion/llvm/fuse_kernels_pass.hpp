// FuseKernelsPass (new pass manager, module pass): adds the fused kernel to a module made
// by link_inputs(): one parameter per planned argument (promoted and constant ones too; the
// later passes replace and drop them), a body that calls each input function in order,
// guarded where the kernel has fewer work-items than the fused launch, with a barrier of
// the requested fences between consecutive kernels. The fused kernel gets the calling
// convention, attributes and OpenCL argument metadata of the inputs; the inputs lose theirs.
// Not thread-safe for one module.
#pragma once

#include <llvm/IR/PassManager.h>

#include <string>

#include "fusion_plan.hpp"

namespace plexus::fusion_llvm {

class FuseKernelsPass : public llvm::PassInfoMixin<FuseKernelsPass> {
 public:
  FuseKernelsPass(const FusionPlan& plan, FusionBarrier barrier, std::string name)
      : plan_(plan), barrier_(barrier), name_(std::move(name)) {}
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);

 private:
  const FusionPlan& plan_;
  FusionBarrier barrier_;
  std::string name_;
};

}  // namespace plexus::fusion_llvm
