#include "device_code_checks.hpp"

#include <dlfcn.h>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace plexus::compiler_shared {

std::string unresolved_functions(const llvm::Module& module, BinaryFormat format) {
  std::string names;
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty()) continue;
    const llvm::StringRef name = function.getName();
    if (format == BinaryFormat::ptx &&
        (name == "vprintf" || name == "malloc" || name == "free" || name == "__assertfail"))
      continue;
    // The host backend's JIT: its runtime symbols, then the process (libm, printf).
    if (format == BinaryFormat::llvm_bitcode &&
        (name.startswith("__plexus_") || dlsym(RTLD_DEFAULT, name.str().c_str()) != nullptr))
      continue;
    names += (names.empty() ? "" : ", ") + llvm::demangle(name.str());
  }
  return names;
}

std::string host_unresolved_message(const std::string& missing) {
  return "the kernels call functions that neither they nor the host device library define, "
         "so the llvm_bitcode code would not load on the host backend: " +
         missing;
}

bool order_blocks_for_spirv(llvm::Module& module) {
  bool changed = false;
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    // The traversal is computed up front, so blocks can be moved while walking it;
    // unreachable blocks are not in it and end up after the reachable ones.
    llvm::ReversePostOrderTraversal<llvm::Function*> order(&function);
    llvm::BasicBlock* previous = nullptr;
    for (llvm::BasicBlock* block : order) {
      if (previous && block->getPrevNode() != previous) {
        block->moveAfter(previous);
        changed = true;
      }
      previous = block;
    }
  }
  return changed;
}

}  // namespace plexus::compiler_shared
