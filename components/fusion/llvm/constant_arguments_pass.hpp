// ConstantArgumentsPass (new pass manager, module pass): replaces the fused kernel's
// parameters that the runtime declared constant by their values (integers, floating point
// and vectors of them, read from the value's bytes in the target's byte order); a parameter
// of another type stays a parameter and `refused` says so.
// DropParametersPass: rebuilds the fused kernel without the parameters that were promoted or
// made constant (they have no uses left) and records which planned arguments remain, in
// order, in `kept` (indices into FusionPlan::args). The OpenCL argument metadata follows.
// Not thread-safe for one module.
#pragma once

#include <llvm/IR/PassManager.h>

#include <cstddef>
#include <string>
#include <vector>

#include "fusion_plan.hpp"

namespace plexus::fusion_llvm {

class ConstantArgumentsPass : public llvm::PassInfoMixin<ConstantArgumentsPass> {
 public:
  ConstantArgumentsPass(const FusionPlan& plan, std::string fused_name,
                        std::vector<std::string>& refused)
      : plan_(plan), name_(std::move(fused_name)), refused_(refused) {}
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);

 private:
  const FusionPlan& plan_;
  std::string name_;
  std::vector<std::string>& refused_;
};

class DropParametersPass : public llvm::PassInfoMixin<DropParametersPass> {
 public:
  DropParametersPass(const FusionPlan& plan, std::string fused_name, std::vector<std::size_t>& kept)
      : plan_(plan), name_(std::move(fused_name)), kept_(kept) {}
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);

 private:
  const FusionPlan& plan_;
  std::string name_;
  std::vector<std::size_t>& kept_;
};

}  // namespace plexus::fusion_llvm
