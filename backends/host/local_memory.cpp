#include "local_memory.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <vector>

#include "device_library/work_item_state.h"

namespace plexus::host {

namespace {

bool is_local_global(const llvm::Value* value) {
  const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(value);
  return global && global->getAddressSpace() == local_address_space;
}

bool refers_to_local(const llvm::Constant* constant) {
  if (is_local_global(constant)) return true;
  if (const auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(constant)) {
    for (const llvm::Value* operand : expression->operands())
      if (refers_to_local(llvm::cast<llvm::Constant>(operand))) return true;
  }
  return false;
}

// Turns constant expressions over local globals into instructions, so that every use of a
// local global in `function` is an instruction operand.
void expand_constant_expressions(llvm::Function& function) {
  std::vector<llvm::Instruction*> pending;
  for (llvm::Instruction& instruction : llvm::instructions(function))
    pending.push_back(&instruction);
  while (!pending.empty()) {
    llvm::Instruction* instruction = pending.back();
    pending.pop_back();
    for (unsigned i = 0; i < instruction->getNumOperands(); ++i) {
      auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(instruction->getOperand(i));
      if (!expression || !refers_to_local(expression)) continue;
      llvm::Instruction* expanded = expression->getAsInstruction();
      if (auto* phi = llvm::dyn_cast<llvm::PHINode>(instruction)) {
        expanded->insertBefore(phi->getIncomingBlock(i)->getTerminator());
      } else {
        expanded->insertBefore(instruction);
      }
      instruction->setOperand(i, expanded);
      pending.push_back(expanded);
    }
  }
}

}  // namespace

llvm::Value* local_block_address(llvm::Function& function, llvm::Value& state,
                                 llvm::Value* offset) {
  llvm::LLVMContext& context = function.getContext();
  llvm::IRBuilder<> builder(&*function.getEntryBlock().getFirstInsertionPt());
  llvm::Type* i64 = builder.getInt64Ty();
  llvm::Value* field = builder.CreateConstInBoundsGEP1_64(
      builder.getInt8Ty(), &state, offsetof(plexus_work_item_state, local_base));
  llvm::Value* base = builder.CreateLoad(i64, field, "local_base");
  llvm::Value* address = builder.CreateAdd(base, offset);
  return builder.CreateIntToPtr(address, llvm::PointerType::get(context, local_address_space));
}

std::uint64_t place_local_variables(llvm::Function& function, llvm::Value& state) {
  expand_constant_expressions(function);
  std::vector<llvm::GlobalVariable*> variables;
  for (llvm::Instruction& instruction : llvm::instructions(function))
    for (llvm::Value* operand : instruction.operands())
      if (is_local_global(operand)) {
        auto* global = llvm::cast<llvm::GlobalVariable>(operand);
        if (std::find(variables.begin(), variables.end(), global) == variables.end())
          variables.push_back(global);
      }
  const llvm::DataLayout& layout = function.getParent()->getDataLayout();
  std::uint64_t offset = 0;
  for (llvm::GlobalVariable* variable : variables) {
    llvm::Type* type = variable->getValueType();
    const std::uint64_t align = std::max<std::uint64_t>(variable->getAlign().valueOrOne().value(),
                                                        layout.getABITypeAlign(type).value());
    offset = (offset + align - 1) / align * align;
    llvm::Value* address = local_block_address(
        function, state,
        llvm::ConstantInt::get(llvm::Type::getInt64Ty(function.getContext()), offset));
    variable->replaceUsesWithIf(address, [&](llvm::Use& use) {
      auto* user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
      return user && user->getFunction() == &function;
    });
    offset += layout.getTypeAllocSize(type);
  }
  return (offset + local_block_alignment - 1) / local_block_alignment * local_block_alignment;
}

}  // namespace plexus::host
