#include "sycl_work_group_scratch.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "address_spaces.hpp"
#include "kernel_inlining.hpp"
#include "kernel_inspector.hpp"
#include "kernel_parameter.hpp"

namespace plexus::compiler_shared {

namespace {


// The calls of `scratch` in `function`.
std::vector<llvm::CallBase*> calls_in(llvm::Function& function, llvm::Function& scratch) {
  std::vector<llvm::CallBase*> calls;
  for (llvm::User* user : scratch.users())
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(user);
        call && call->getFunction() == &function && call->getCalledOperand() == &scratch)
      calls.push_back(call);
  return calls;
}

}  // namespace

bool give_kernels_work_group_scratch(llvm::Module& module) {
  llvm::Function* scratch = module.getFunction(scratch_function_name);
  if (!scratch || scratch->use_empty()) return false;
  inline_users_into_kernels(module, {scratch});
  llvm::SmallPtrSet<llvm::Function*, 8> users;
  add_user_functions(scratch, users);
  for (llvm::Function* user : users) {
    if (!KernelInspector::is_kernel(*user)) continue;
    llvm::Function* kernel = with_last_parameter(
        *user, {scratch->getReturnType(), local_address_space, "char*", scratch_parameter_name});
    llvm::Argument* memory = kernel->getArg(kernel->arg_size() - 1);
    memory->addAttr(llvm::Attribute::NoAlias);
    for (llvm::CallBase* call : calls_in(*kernel, *scratch)) {
      call->replaceAllUsesWith(memory);
      call->eraseFromParent();
    }
  }
  for (llvm::User* user : llvm::make_early_inc_range(scratch->users()))
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(user)) {
      call->replaceAllUsesWith(llvm::Constant::getNullValue(call->getType()));
      call->eraseFromParent();
    }
  scratch->removeDeadConstantUsers();
  if (scratch->use_empty()) scratch->eraseFromParent();
  return true;
}

}  // namespace plexus::compiler_shared
