#include "fusion_pipeline.hpp"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/IndVarSimplify.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SCCP.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>

#include "constant_arguments_pass.hpp"
#include "fuse_kernels_pass.hpp"
#include "internalize_pass.hpp"
#include "plexus/error.hpp"
#include "target_conventions.hpp"

namespace plexus::fusion_llvm {

namespace {

void verify(const llvm::Module& module, const char* stage) {
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(module, &stream))
    throw error(error_category::internal,
                std::string("fusion: the module is not valid IR after ") + stage + ": " +
                    stream.str());
}

// Fresh analysis managers (the fused kernel is replaced between the two pipelines).
struct Analyses {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder;
  Analyses() {
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
  }
};

}  // namespace

PipelineOutcome run_fusion_pipeline(llvm::Module& module, const FusionPlan& plan,
                                    FusionBarrier barrier, const std::string& fused_name) {
  PipelineOutcome outcome;
  {
    Analyses analyses;
    llvm::ModuleAnalysisManager& modules = analyses.modules;
    llvm::ModulePassManager fuse;
    fuse.addPass(FuseKernelsPass(plan, barrier, fused_name));
    fuse.addPass(llvm::AlwaysInlinerPass());
    llvm::FunctionPassManager cleanup;
    cleanup.addPass(llvm::SROAPass());
    cleanup.addPass(llvm::EarlyCSEPass());
    cleanup.addPass(llvm::InstCombinePass());
    cleanup.addPass(llvm::SimplifyCFGPass());
    cleanup.addPass(llvm::InferAddressSpacesPass(generic_address_space(module)));
    cleanup.addPass(llvm::createFunctionToLoopPassAdaptor(llvm::IndVarSimplifyPass()));
    cleanup.addPass(llvm::LoopUnrollPass());
    cleanup.addPass(llvm::SROAPass());
    cleanup.addPass(llvm::InstCombinePass());
    cleanup.addPass(llvm::SimplifyCFGPass());
    fuse.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(cleanup)));
    fuse.addPass(InternalizePass(plan, fused_name, outcome.refusals));
    fuse.addPass(ConstantArgumentsPass(plan, fused_name, outcome.refusals));
    fuse.addPass(DropParametersPass(plan, fused_name, outcome.kept));
    llvm::FunctionPassManager after;
    after.addPass(llvm::SROAPass());
    after.addPass(llvm::SCCPPass());
    after.addPass(llvm::InstCombinePass());
    after.addPass(llvm::SimplifyCFGPass());
    after.addPass(llvm::ADCEPass());
    after.addPass(llvm::EarlyCSEPass());
    fuse.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(after)));
    fuse.run(module, modules);
  }
  // NVPTX: the inputs' kernel marks were dropped when linking; the fused entry (rebuilt
  // by DropParametersPass) gets its own, or the back end would emit it as a .func.
  drop_nvptx_annotations(module);
  if (llvm::Function* entry = module.getFunction(fused_name)) annotate_nvptx_kernel(*entry);
  verify(module, "fusion");
  llvm::internalizeModule(module, [&](const llvm::GlobalValue& value) {
    return value.getName() == fused_name;
  });
  Analyses analyses;
  analyses.builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
      .run(module, analyses.modules);
  verify(module, "the O3 pipeline");
  return outcome;
}

}  // namespace plexus::fusion_llvm
