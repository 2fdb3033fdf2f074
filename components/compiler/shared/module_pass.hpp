// run_module_pass: runs one new-pass-manager module pass (AlwaysInlinerPass, GlobalDCEPass,
// ...) over `module` with LLVM's standard analyses registered, no target machine: for the
// small fix-ups of a module the compiler components make outside the optimisation pipeline.
// Thread-safety: uses only the module it is given (and analysis managers of its own).
#pragma once

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace plexus::compiler_shared {

template <class Pass>
void run_module_pass(llvm::Module& module, Pass pass) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  pass.run(module, modules);
}

}  // namespace plexus::compiler_shared
