#include "target_conventions.hpp"

#include <llvm/ADT/Triple.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>

namespace plexus::fusion_llvm {

namespace {

constexpr unsigned opencl_generic_address_space = 4;  // spir, and the host's fake map
constexpr unsigned nvptx_generic_address_space = 0;

}  // namespace

bool is_nvptx(const llvm::Module& module) {
  return llvm::Triple(module.getTargetTriple()).isNVPTX();
}

unsigned generic_address_space(const llvm::Module& module) {
  return is_nvptx(module) ? nvptx_generic_address_space : opencl_generic_address_space;
}

void drop_nvptx_annotations(llvm::Module& module) {
  if (llvm::NamedMDNode* annotations = module.getNamedMetadata("nvvm.annotations"))
    module.eraseNamedMetadata(annotations);
}

bool annotated_nvptx_kernel(const llvm::Function& function) {
  const llvm::NamedMDNode* annotations = function.getParent()->getNamedMetadata("nvvm.annotations");
  if (!annotations) return false;
  for (const llvm::MDNode* node : annotations->operands()) {
    if (node->getNumOperands() < 3) continue;
    const auto* what = llvm::dyn_cast<llvm::MDString>(node->getOperand(1).get());
    const auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(2));
    if (what && what->getString() == "kernel" && value && value->isOne() &&
        llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0)) == &function)
      return true;
  }
  return false;
}

void annotate_nvptx_kernel(llvm::Function& kernel) {
  llvm::Module& module = *kernel.getParent();
  if (!is_nvptx(module)) return;
  llvm::LLVMContext& context = module.getContext();
  llvm::Metadata* operands[] = {
      llvm::ValueAsMetadata::get(&kernel), llvm::MDString::get(context, "kernel"),
      llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1))};
  module.getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(context, operands));
}

std::optional<std::string> work_item_register_read(const llvm::Module& module) {
  for (const llvm::Function& function : module)
    if (function.isDeclaration() && function.getName().startswith("llvm.nvvm.read.ptx.sreg.") &&
        !function.use_empty())
      return function.getName().str();
  return std::nullopt;
}

}  // namespace plexus::fusion_llvm
