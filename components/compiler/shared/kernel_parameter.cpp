#include "kernel_parameter.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>

namespace plexus::compiler_shared {

namespace {

// The kernel's OpenCL argument metadata (kernel_arg_*) with one entry more: `added`'s.
void append_argument_metadata(llvm::Function& kernel, std::size_t old_count,
                              const AddedParameter& added) {
  llvm::LLVMContext& context = kernel.getContext();
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode*>, 8> attached;
  kernel.getAllMetadata(attached);
  llvm::SmallVector<llvm::StringRef, 16> kind_names;
  context.getMDKindNames(kind_names);
  for (auto& [kind, node] : attached) {
    const llvm::StringRef name = kind < kind_names.size() ? kind_names[kind] : "";
    if (!name.startswith("kernel_arg_") || node->getNumOperands() != old_count) continue;
    llvm::Metadata* entry = nullptr;
    if (name == "kernel_arg_addr_space")
      entry = llvm::ConstantAsMetadata::get(
          llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), added.address_space));
    else if (name == "kernel_arg_access_qual")
      entry = llvm::MDString::get(context, "none");
    else if (name == "kernel_arg_type" || name == "kernel_arg_base_type")
      entry = llvm::MDString::get(context, added.type_name);
    else if (name == "kernel_arg_type_qual")
      entry = llvm::MDString::get(context, "");
    else if (name == "kernel_arg_name")
      entry = llvm::MDString::get(context, added.name);
    else if (old_count > 0)
      entry = node->getOperand(old_count - 1).get();
    llvm::SmallVector<llvm::Metadata*, 16> operands(node->op_begin(), node->op_end());
    operands.push_back(entry);
    kernel.setMetadata(kind, llvm::MDNode::get(context, operands));
  }
}

}  // namespace

llvm::Function* with_last_parameter(llvm::Function& kernel, const AddedParameter& added) {
  llvm::FunctionType* old_type = kernel.getFunctionType();
  llvm::SmallVector<llvm::Type*, 16> parameters(old_type->param_begin(), old_type->param_end());
  parameters.push_back(added.type);
  auto* type = llvm::FunctionType::get(old_type->getReturnType(), parameters, false);
  llvm::Function* grown = llvm::Function::Create(type, kernel.getLinkage(),
                                                 kernel.getAddressSpace(), "", kernel.getParent());
  grown->copyAttributesFrom(&kernel);
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode*>, 8> attached;
  kernel.getAllMetadata(attached);
  for (auto& [kind, node] : attached) grown->setMetadata(kind, node);
  kernel.clearMetadata();
  grown->getBasicBlockList().splice(grown->begin(), kernel.getBasicBlockList());
  for (std::size_t i = 0; i < kernel.arg_size(); ++i) {
    kernel.getArg(i)->replaceAllUsesWith(grown->getArg(i));
    grown->getArg(i)->takeName(kernel.getArg(i));
  }
  grown->getArg(kernel.arg_size())->setName(added.name);
  grown->takeName(&kernel);
  kernel.replaceAllUsesWith(llvm::ConstantExpr::getBitCast(grown, kernel.getType()));
  kernel.eraseFromParent();
  append_argument_metadata(*grown, parameters.size() - 1, added);
  return grown;
}

}  // namespace plexus::compiler_shared
