#include "constant_arguments_pass.hpp"

#include <llvm/ADT/APInt.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <cstring>

namespace plexus::fusion_llvm {

namespace {

// `type`'s value from `bytes` (host order), or nullptr for types this pass does not build.
llvm::Constant* constant_of(llvm::Type* type, const std::vector<std::byte>& bytes,
                            const llvm::DataLayout& layout) {
  if (layout.getTypeStoreSize(type).getFixedSize() != bytes.size()) return nullptr;
  if (type->isIntegerTy() || type->isFloatingPointTy()) {
    const unsigned bits = static_cast<unsigned>(bytes.size() * 8);
    std::vector<std::uint64_t> words((bytes.size() + 7) / 8, 0);
    std::memcpy(words.data(), bytes.data(), bytes.size());  // little-endian hosts
    const llvm::APInt value(bits, words);
    if (type->isIntegerTy()) return llvm::ConstantInt::get(type->getContext(), value);
    return llvm::ConstantFP::get(type->getContext(), llvm::APFloat(type->getFltSemantics(), value));
  }
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    llvm::Type* element = vector->getElementType();
    const std::size_t size = layout.getTypeStoreSize(element).getFixedSize();
    if (layout.getTypeAllocSize(element).getFixedSize() != size) return nullptr;
    std::vector<llvm::Constant*> elements;
    for (unsigned i = 0; i < vector->getNumElements(); ++i) {
      const std::vector<std::byte> part(bytes.begin() + i * size, bytes.begin() + (i + 1) * size);
      llvm::Constant* value = constant_of(element, part, layout);
      if (!value) return nullptr;
      elements.push_back(value);
    }
    return llvm::ConstantVector::get(elements);
  }
  return nullptr;
}

}  // namespace

llvm::PreservedAnalyses ConstantArgumentsPass::run(llvm::Module& module,
                                                   llvm::ModuleAnalysisManager&) {
  llvm::Function* fused = module.getFunction(name_);
  if (!fused) return llvm::PreservedAnalyses::all();
  bool changed = false;
  for (std::size_t a = 0; a < plan_.args.size(); ++a) {
    if (!plan_.args[a].constant) continue;
    llvm::Argument& parameter = *fused->getArg(a);
    if (parameter.hasByValAttr()) {
      refused_.push_back("argument " + std::to_string(plan_.args[a].identity) +
                         " is passed by value in memory: its constant is not propagated");
      continue;
    }
    llvm::Constant* value = constant_of(parameter.getType(), *plan_.args[a].constant,
                                        module.getDataLayout());
    if (!value) {
      refused_.push_back("argument " + std::to_string(plan_.args[a].identity) +
                         " has a type whose constant is not propagated");
      continue;
    }
    parameter.replaceAllUsesWith(value);
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

llvm::PreservedAnalyses DropParametersPass::run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
  llvm::Function* old = module.getFunction(name_);
  if (!old) return llvm::PreservedAnalyses::all();
  kept_.clear();
  std::vector<llvm::Type*> types;
  for (std::size_t a = 0; a < plan_.args.size(); ++a) {
    const bool replaced =
        plan_.args[a].constant || plan_.args[a].promotion != Promotion::none;
    if (replaced && old->getArg(a)->use_empty()) continue;
    kept_.push_back(a);
    types.push_back(old->getArg(a)->getType());
  }
  if (kept_.size() == plan_.args.size()) return llvm::PreservedAnalyses::all();
  llvm::Function* fused = llvm::Function::Create(
      llvm::FunctionType::get(old->getReturnType(), types, false), old->getLinkage(), "", module);
  fused->takeName(old);
  fused->setCallingConv(old->getCallingConv());
  fused->addFnAttrs(llvm::AttrBuilder(module.getContext(), old->getAttributes().getFnAttrs()));
  fused->getBasicBlockList().splice(fused->begin(), old->getBasicBlockList());
  for (std::size_t i = 0; i < kept_.size(); ++i) {
    llvm::Argument* from = old->getArg(kept_[i]);
    llvm::Argument* to = fused->getArg(i);
    to->takeName(from);
    if (old->hasParamAttribute(kept_[i], llvm::Attribute::ByVal))
      fused->addParamAttr(i, old->getParamAttribute(kept_[i], llvm::Attribute::ByVal));
    from->replaceAllUsesWith(to);
  }
  llvm::SmallVector<std::pair<unsigned, llvm::MDNode*>, 8> attached;
  old->getAllMetadata(attached);
  llvm::SmallVector<llvm::StringRef, 32> kind_names;
  module.getContext().getMDKindNames(kind_names);
  for (auto [kind, node] : attached) {
    const llvm::StringRef name = kind < kind_names.size() ? kind_names[kind] : "";
    if (name.startswith("kernel_arg_") && node->getNumOperands() == plan_.args.size()) {
      std::vector<llvm::Metadata*> operands;
      for (std::size_t a : kept_) operands.push_back(node->getOperand(a).get());
      fused->setMetadata(kind, llvm::MDNode::get(module.getContext(), operands));
    } else {
      fused->setMetadata(kind, node);
    }
  }
  old->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

}  // namespace plexus::fusion_llvm
