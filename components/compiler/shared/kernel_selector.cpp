#include "kernel_selector.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <vector>

#include "kernel_inspector.hpp"
#include "module_pass.hpp"

namespace plexus::compiler_shared {

namespace {

// Drops !nvvm.annotations entries of functions other than `kept` (or of removed ones).
void prune_nvvm_annotations(llvm::Module& module, const llvm::Function* kept) {
  llvm::NamedMDNode* annotations = module.getNamedMetadata("nvvm.annotations");
  if (!annotations) return;
  std::vector<llvm::MDNode*> keep;
  for (llvm::MDNode* node : annotations->operands()) {
    const llvm::Constant* subject =
        node->getNumOperands() > 0
            ? llvm::mdconst::dyn_extract_or_null<llvm::Constant>(node->getOperand(0).get())
            : nullptr;
    const auto* function = llvm::dyn_cast_or_null<llvm::Function>(subject);
    if (function == nullptr ? subject != nullptr : function == kept) keep.push_back(node);
  }
  annotations->clearOperands();
  for (llvm::MDNode* node : keep) annotations->addOperand(node);
}

}  // namespace

bool KernelSelector::keep_only(llvm::Module& module, const std::string& name, DiagnosticLog& log) {
  llvm::Function* kept = nullptr;
  std::string kernels;
  for (llvm::Function& function : module) {
    if (!KernelInspector::is_kernel(function)) continue;
    if (function.getName() == name) kept = &function;
    kernels += (kernels.empty() ? "" : ", ") + function.getName().str();
  }
  if (!kept) {
    log.error("no kernel '" + name + "' in the source (its kernels: " +
              (kernels.empty() ? std::string("none") : kernels) + ")");
    return false;
  }
  prune_nvvm_annotations(module, kept);
  // Every other definition becomes internal, so what the kept kernel does not use goes.
  llvm::internalizeModule(module,
                          [kept](const llvm::GlobalValue& value) { return &value == kept; });
  run_module_pass(module, llvm::GlobalDCEPass());
  return true;
}

}  // namespace plexus::compiler_shared
