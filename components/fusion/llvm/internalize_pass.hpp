// InternalizePass (new pass manager, module pass): promotes the fused kernel's buffer
// parameters that the plan marks private or local to private memory (an alloca per
// work-item) or local memory (an internal __local array per work-group) of the planned
// size; every access p + off becomes storage + off % size (in bytes). Runs after the
// inputs are inlined. A parameter whose pointer escapes (stored, converted to an integer,
// passed to a call, compared, cast to another address space, merged in a phi or select)
// is left in global memory, and `refused` gets the reason. Promoted parameters have no
// uses afterwards. Not thread-safe for one module.
#pragma once

#include <llvm/IR/PassManager.h>

#include <string>
#include <vector>

#include "fusion_plan.hpp"

namespace plexus::fusion_llvm {

class InternalizePass : public llvm::PassInfoMixin<InternalizePass> {
 public:
  InternalizePass(const FusionPlan& plan, std::string fused_name, std::vector<std::string>& refused)
      : plan_(plan), name_(std::move(fused_name)), refused_(refused) {}
  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager& analyses);

 private:
  const FusionPlan& plan_;
  std::string name_;
  std::vector<std::string>& refused_;
};

}  // namespace plexus::fusion_llvm
