#include "spirv_translator_input.hpp"

#include <llvm/CodeGen/ExpandReductions.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include <vector>

#include "device_code_checks.hpp"

namespace plexus::compiler_shared {

namespace {

bool remove_freeze(llvm::Module& module) {
  std::vector<llvm::FreezeInst*> frozen;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction)) frozen.push_back(freeze);
  for (llvm::FreezeInst* freeze : frozen) {
    freeze->replaceAllUsesWith(freeze->getOperand(0));
    freeze->eraseFromParent();
  }
  return !frozen.empty();
}

// llvm.vector.reduce.* (the SLP vectoriser's reductions) as shuffles and scalar operations:
// the translator calls them unexpected intrinsics and exits the process with status 8.
bool expand_reductions(llvm::Module& module) {
  bool any = false;
  for (const llvm::Function& function : module)
    any = any || function.getName().startswith("llvm.vector.reduce.");
  if (!any) return false;
  llvm::FunctionAnalysisManager analyses;
  llvm::PassBuilder builder;  // no target: every reduction is expanded
  builder.registerFunctionAnalyses(analyses);
  llvm::ExpandReductionsPass pass;
  for (llvm::Function& function : module)
    if (!function.isDeclaration()) pass.run(function, analyses);
  return true;
}

// The entry block's allocas first, before anything else: SPIR-V wants a function's
// OpVariables to be the first instructions of its first block, and the translator keeps
// the order it is given (instcombine leaves pointer casts between allocas).
bool hoist_allocas(llvm::Module& module) {
  bool moved = false;
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    llvm::BasicBlock& entry = function.getEntryBlock();
    llvm::Instruction* insert = &*entry.getFirstInsertionPt();
    for (llvm::Instruction& instruction : llvm::make_early_inc_range(entry)) {
      if (!llvm::isa<llvm::AllocaInst>(instruction)) continue;
      if (&instruction == insert) {
        insert = instruction.getNextNode();
        continue;
      }
      instruction.moveBefore(insert);
      moved = true;
    }
  }
  return moved;
}

}  // namespace

bool prepare_for_spirv_translator(llvm::Module& module) {
  const bool unfrozen = remove_freeze(module);
  const bool expanded = expand_reductions(module);
  const bool hoisted = hoist_allocas(module);
  return order_blocks_for_spirv(module) || unfrozen || expanded || hoisted;
}

}  // namespace plexus::compiler_shared
