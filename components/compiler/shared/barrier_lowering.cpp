#include "barrier_lowering.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace plexus::compiler_shared {

bool BarrierLowering::lower_work_group_barrier(llvm::Module& module) {
  bool changed = false;
  for (const char* name : {"_Z18work_group_barrierj", "_Z18work_group_barrierj12memory_scope"}) {
    llvm::Function* missing = module.getFunction(name);
    if (!missing || !missing->isDeclaration()) continue;
    llvm::LLVMContext& context = module.getContext();
    llvm::FunctionCallee barrier = module.getOrInsertFunction(
        "_Z7barrierj", llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                               {llvm::Type::getInt32Ty(context)}, false));
    if (auto* declared = llvm::dyn_cast<llvm::Function>(barrier.getCallee())) {
      declared->setConvergent();
      declared->setCallingConv(missing->getCallingConv());
    }
    for (llvm::User* user : llvm::make_early_inc_range(missing->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != missing || call->arg_size() == 0) continue;
      llvm::CallInst* replacement =
          llvm::CallInst::Create(barrier, {call->getArgOperand(0)}, "", call);
      replacement->setCallingConv(call->getCallingConv());
      replacement->setConvergent();
      call->eraseFromParent();
      changed = true;
    }
    if (missing->use_empty()) missing->eraseFromParent();
  }
  return changed;
}

}  // namespace plexus::compiler_shared
