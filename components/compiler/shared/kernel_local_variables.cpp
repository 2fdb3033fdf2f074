#include "kernel_local_variables.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "address_spaces.hpp"
#include "kernel_inlining.hpp"
#include "kernel_inspector.hpp"

namespace plexus::compiler_shared {

namespace {

using FunctionSet = llvm::SmallPtrSet<llvm::Function*, 8>;

// `constant` with `from` replaced by `to` wherever it occurs in it.
llvm::Constant* substitute(llvm::Constant* constant, llvm::GlobalVariable* from,
                           llvm::GlobalVariable* to) {
  if (constant == from) return to;
  auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(constant);
  if (!expression) return constant;
  llvm::SmallVector<llvm::Constant*, 4> operands;
  bool changed = false;
  for (llvm::Value* operand : expression->operands()) {
    auto* old_operand = llvm::cast<llvm::Constant>(operand);
    llvm::Constant* new_operand = substitute(old_operand, from, to);
    changed = changed || new_operand != old_operand;
    operands.push_back(new_operand);
  }
  return changed ? expression->getWithOperands(operands) : constant;
}

// Points `kernel`'s uses of `local` at `copy`.
void retarget_uses(llvm::Function& kernel, llvm::GlobalVariable* local, llvm::GlobalVariable* copy) {
  for (llvm::Instruction& instruction : llvm::instructions(kernel))
    for (unsigned i = 0; i < instruction.getNumOperands(); ++i)
      if (auto* constant = llvm::dyn_cast<llvm::Constant>(instruction.getOperand(i)))
        if (llvm::Constant* replaced = substitute(constant, local, copy); replaced != constant)
          instruction.setOperand(i, replaced);
}

// Whether `local` is already the kernel's own: used by `kernel` alone and named after it.
bool owned_by(const llvm::GlobalVariable& local, const llvm::Function& kernel, const FunctionSet& users) {
  return users.size() == 1 && local.getName().startswith((kernel.getName() + ".").str());
}

}  // namespace

bool give_kernels_their_locals(llvm::Module& module) {
  std::vector<llvm::GlobalVariable*> locals;
  for (llvm::GlobalVariable& global : module.globals())
    if (global.getAddressSpace() == local_address_space && !global.isDeclaration())
      locals.push_back(&global);
  if (locals.empty()) return false;
  bool changed = inline_users_into_kernels(module, {locals.begin(), locals.end()});
  for (llvm::GlobalVariable* local : locals) {
    local->removeDeadConstantUsers();
    FunctionSet users;
    add_user_functions(local, users);
    for (llvm::Function* kernel : users) {
      if (!KernelInspector::is_kernel(*kernel) || owned_by(*local, *kernel, users)) continue;
      auto* copy = new llvm::GlobalVariable(
          module, local->getValueType(), false, llvm::GlobalValue::InternalLinkage,
          local->hasInitializer() ? local->getInitializer() : nullptr,
          kernel->getName() + "." + local->getName(), nullptr, llvm::GlobalValue::NotThreadLocal,
          local_address_space);
      copy->setAlignment(local->getAlign());
      copy->setUnnamedAddr(local->getUnnamedAddr());
      retarget_uses(*kernel, local, copy);
      changed = true;
    }
    local->removeDeadConstantUsers();
    if (local->use_empty() && local->hasLocalLinkage()) local->eraseFromParent();
  }
  return changed;
}

}  // namespace plexus::compiler_shared
