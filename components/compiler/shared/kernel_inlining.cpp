#include "kernel_inlining.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

#include "kernel_inspector.hpp"
#include "module_pass.hpp"

namespace plexus::compiler_shared {

namespace {
using FunctionSet = llvm::SmallPtrSet<llvm::Function*, 8>;
}  // namespace

void add_user_functions(llvm::Value* value, llvm::SmallPtrSetImpl<llvm::Function*>& functions) {
  for (llvm::User* user : value->users()) {
    if (auto* instruction = llvm::dyn_cast<llvm::Instruction>(user))
      functions.insert(instruction->getFunction());
    else if (llvm::isa<llvm::ConstantExpr>(user))
      add_user_functions(user, functions);
  }
}

bool inline_users_into_kernels(llvm::Module& module, const std::vector<llvm::Value*>& values) {
  FunctionSet users;
  for (llvm::Value* value : values) add_user_functions(value, users);
  std::vector<llvm::Function*> pending(users.begin(), users.end());
  FunctionSet marked;
  while (!pending.empty()) {
    llvm::Function* function = pending.back();
    pending.pop_back();
    if (KernelInspector::is_kernel(*function) || !marked.insert(function).second) continue;
    function->removeFnAttr(llvm::Attribute::NoInline);
    function->removeFnAttr(llvm::Attribute::OptimizeNone);
    function->addFnAttr(llvm::Attribute::AlwaysInline);
    for (llvm::User* user : function->users())
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(user)) pending.push_back(call->getFunction());
  }
  if (marked.empty()) return false;
  run_module_pass(module, llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  return true;
}

}  // namespace plexus::compiler_shared
