#include "fuse_kernels_pass.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <array>
#include <optional>
#include <vector>

#include "input_modules.hpp"
#include "plexus/error.hpp"
#include "work_item_remap.hpp"

namespace plexus::fusion_llvm {

namespace {

constexpr std::array<const char*, 6> argument_metadata{
    "kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
    "kernel_arg_base_type",  "kernel_arg_type_qual",   "kernel_arg_name"};

// For each planned argument, the first (kernel, parameter) that uses it.
std::vector<std::pair<std::size_t, std::size_t>> first_uses(const FusionPlan& plan) {
  std::vector<std::optional<std::pair<std::size_t, std::size_t>>> first(plan.args.size());
  for (std::size_t k = 0; k < plan.arg_of.size(); ++k)
    for (std::size_t p = 0; p < plan.arg_of[k].size(); ++p)
      if (!first[plan.arg_of[k][p]]) first[plan.arg_of[k][p]] = std::make_pair(k, p);
  std::vector<std::pair<std::size_t, std::size_t>> result;
  for (const auto& use : first) result.push_back(*use);
  return result;
}

// The guard of a kernel with fewer work-items than the fused launch.
llvm::Value* guard(llvm::IRBuilder<>& builder, const PlannedKernel& kernel, const NdRange& fused) {
  llvm::Type* type = builder.GetInsertBlock()->getModule()->getDataLayout().getIntPtrType(
      builder.getContext());
  if (kernel.remap_global_id)
    return builder.CreateICmpULT(launch_linear_id(builder, fused),
                                 llvm::ConstantInt::get(type, kernel.range.global_count()));
  llvm::Value* inside = builder.getTrue();
  for (unsigned d = 0; d < 3; ++d) {
    if (kernel.range.global[d] == fused.global[d]) continue;
    llvm::Value* id = builder.CreateSub(
        builder.CreateZExtOrTrunc(launch_global_id(builder, d), type),
        llvm::ConstantInt::get(type, fused.offset[d]));
    inside = builder.CreateAnd(
        inside, builder.CreateICmpULT(id, llvm::ConstantInt::get(type, kernel.range.global[d])));
  }
  return inside;
}

void call_barrier(llvm::IRBuilder<>& builder, FusionBarrier barrier) {
  llvm::Module& module = *builder.GetInsertBlock()->getModule();
  llvm::LLVMContext& context = module.getContext();
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      "_Z7barrierj", llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                             {llvm::Type::getInt32Ty(context)}, false));
  auto* function = llvm::cast<llvm::Function>(callee.getCallee());
  function->setConvergent();
  if (function->isDeclaration() &&
      llvm::StringRef(module.getTargetTriple()).startswith("spir"))
    function->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  llvm::CallInst* call =
      builder.CreateCall(callee, {builder.getInt32(static_cast<unsigned>(barrier))});
  call->setCallingConv(function->getCallingConv());
  call->setConvergent();
}

}  // namespace

llvm::PreservedAnalyses FuseKernelsPass::run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
  llvm::LLVMContext& context = module.getContext();
  std::vector<llvm::Function*> inputs;
  for (std::size_t k = 0; k < plan_.kernels.size(); ++k) {
    llvm::Function* input = module.getFunction(input_function_name(k));
    if (!input) throw error(error_category::internal, "fusion: input function missing");
    inputs.push_back(input);
  }
  const auto uses = first_uses(plan_);
  std::vector<llvm::Type*> types;
  for (const auto& [k, p] : uses) types.push_back(inputs[k]->getArg(p)->getType());
  llvm::Function* fused = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), types, false),
      llvm::GlobalValue::ExternalLinkage, name_, module);
  const llvm::CallingConv::ID convention =
      inputs[0]->getCallingConv() == llvm::CallingConv::SPIR_FUNC
          ? llvm::CallingConv::ID{llvm::CallingConv::SPIR_KERNEL}
          : inputs[0]->getCallingConv();
  fused->setCallingConv(convention);
  llvm::AttrBuilder attributes(context, inputs[0]->getAttributes().getFnAttrs());
  attributes.removeAttribute(llvm::Attribute::AlwaysInline);
  fused->addFnAttrs(attributes);
  for (std::size_t a = 0; a < uses.size(); ++a) {
    const auto [k, p] = uses[a];
    fused->getArg(a)->setName(inputs[k]->getArg(p)->getName());
    if (inputs[k]->hasParamAttribute(p, llvm::Attribute::ByVal))
      fused->addParamAttr(a, inputs[k]->getParamAttribute(p, llvm::Attribute::ByVal));
  }
  // OpenCL argument metadata, per parameter from the first kernel that uses it.
  for (const char* kind : argument_metadata) {
    std::vector<llvm::Metadata*> operands;
    bool complete = true;
    for (const auto& [k, p] : uses) {
      const llvm::MDNode* node = inputs[k]->getMetadata(kind);
      if (!node || p >= node->getNumOperands()) {
        complete = false;
        break;
      }
      operands.push_back(node->getOperand(p).get());
    }
    if (complete) fused->setMetadata(kind, llvm::MDNode::get(context, operands));
  }
  if (plan_.range.has_local_size() && inputs[0]->getMetadata("reqd_work_group_size") != nullptr)
    fused->setMetadata("reqd_work_group_size", inputs[0]->getMetadata("reqd_work_group_size"));
  for (llvm::Function* input : inputs)
    for (const char* kind : argument_metadata) input->setMetadata(kind, nullptr);
  for (llvm::Function* input : inputs) input->setMetadata("reqd_work_group_size", nullptr);

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", fused));
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    llvm::BasicBlock* after = nullptr;
    if (plan_.kernels[k].guarded) {
      llvm::BasicBlock* run = llvm::BasicBlock::Create(context, "kernel" + std::to_string(k), fused);
      after = llvm::BasicBlock::Create(context, "after" + std::to_string(k), fused);
      builder.CreateCondBr(guard(builder, plan_.kernels[k], plan_.range), run, after);
      builder.SetInsertPoint(run);
    }
    std::vector<llvm::Value*> arguments;
    for (std::size_t p = 0; p < inputs[k]->arg_size(); ++p) {
      llvm::Value* value = fused->getArg(plan_.arg_of[k][p]);
      llvm::Type* wanted = inputs[k]->getArg(p)->getType();
      if (value->getType() != wanted)
        value = wanted->isPointerTy() ? builder.CreatePointerBitCastOrAddrSpaceCast(value, wanted)
                                      : builder.CreateBitCast(value, wanted);
      arguments.push_back(value);
    }
    llvm::CallInst* call = builder.CreateCall(inputs[k], arguments);
    call->setCallingConv(inputs[k]->getCallingConv());
    if (after) {
      builder.CreateBr(after);
      builder.SetInsertPoint(after);
    }
    if (k + 1 < inputs.size() && barrier_ != FusionBarrier::none) call_barrier(builder, barrier_);
  }
  builder.CreateRetVoid();
  return llvm::PreservedAnalyses::none();
}

}  // namespace plexus::fusion_llvm
