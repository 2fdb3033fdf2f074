#include "work_item_remap.hpp"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Instructions.h>

#include <array>
#include <vector>

namespace plexus::fusion_llvm {

namespace {

enum class WorkItem {
  none,
  global_id,
  global_size,
  local_size,
  enqueued_local_size,
  num_groups,
  work_dim,
  global_offset,
  global_linear_id
};

WorkItem work_item_of(llvm::StringRef name) {
  return llvm::StringSwitch<WorkItem>(name)
      .Case("_Z13get_global_idj", WorkItem::global_id)
      .Case("_Z15get_global_sizej", WorkItem::global_size)
      .Case("_Z14get_local_sizej", WorkItem::local_size)
      .Case("_Z23get_enqueued_local_sizej", WorkItem::enqueued_local_size)
      .Case("_Z14get_num_groupsj", WorkItem::num_groups)
      .Case("_Z12get_work_dimv", WorkItem::work_dim)
      .Case("_Z17get_global_offsetj", WorkItem::global_offset)
      .Case("_Z20get_global_linear_idv", WorkItem::global_linear_id)
      .Default(WorkItem::none);
}

bool is_spir(const llvm::Module& module) {
  return llvm::StringRef(module.getTargetTriple()).startswith("spir");
}

// value[dimension] for a dimension that may not be a constant; `outside` beyond 2.
llvm::Value* by_dimension(llvm::IRBuilderBase& builder, llvm::Value* dimension,
                          const std::array<llvm::Value*, 3>& value, llvm::Value* outside) {
  llvm::Value* result = outside;
  for (int d = 2; d >= 0; --d) {
    llvm::Value* is_d = builder.CreateICmpEQ(
        dimension, llvm::ConstantInt::get(dimension->getType(), static_cast<std::uint64_t>(d)));
    result = builder.CreateSelect(is_d, value[d], result);
  }
  return result;
}

std::array<llvm::Value*, 3> constants(llvm::Type* type, const std::array<std::size_t, 3>& v) {
  return {llvm::ConstantInt::get(type, v[0]), llvm::ConstantInt::get(type, v[1]),
          llvm::ConstantInt::get(type, v[2])};
}

// The replacement of `call` (a work-item function of kind `what`), or nullptr to keep it.
llvm::Value* replacement(llvm::CallInst& call, WorkItem what, const PlannedKernel& kernel,
                         const NdRange& fused) {
  llvm::IRBuilder<> builder(&call);
  llvm::Type* type = call.getType();
  const NdRange& own = kernel.range;
  llvm::Value* dimension = call.arg_size() > 0 ? call.getArgOperand(0) : nullptr;
  switch (what) {
    case WorkItem::global_size:
      return kernel.remap_sizes
                 ? by_dimension(builder, dimension, constants(type, own.global),
                                llvm::ConstantInt::get(type, 1))
                 : nullptr;
    case WorkItem::work_dim:
      return kernel.remap_sizes ? llvm::ConstantInt::get(type, own.dimensions) : nullptr;
    case WorkItem::local_size:
    case WorkItem::enqueued_local_size:
      return kernel.remap_sizes && own.has_local_size()
                 ? by_dimension(builder, dimension, constants(type, own.local),
                                llvm::ConstantInt::get(type, 1))
                 : nullptr;
    case WorkItem::num_groups:
      if (!kernel.remap_sizes || !own.has_local_size()) return nullptr;
      return by_dimension(builder, dimension,
                          constants(type, {own.global[0] / own.local[0],
                                           own.global[1] / own.local[1],
                                           own.global[2] / own.local[2]}),
                          llvm::ConstantInt::get(type, 1));
    case WorkItem::global_id: {
      if (!kernel.remap_global_id) return nullptr;
      llvm::Value* linear = builder.CreateZExtOrTrunc(launch_linear_id(builder, fused), type);
      llvm::Value* g0 = llvm::ConstantInt::get(type, own.global[0]);
      llvm::Value* g1 = llvm::ConstantInt::get(type, own.global[1]);
      llvm::Value* g01 = llvm::ConstantInt::get(type, own.global[0] * own.global[1]);
      const std::array<llvm::Value*, 3> ids{
          builder.CreateURem(linear, g0),
          builder.CreateURem(builder.CreateUDiv(linear, g0), g1),
          builder.CreateUDiv(linear, g01)};
      return by_dimension(builder, dimension, ids, llvm::ConstantInt::get(type, 0));
    }
    default:
      return nullptr;  // offsets are equal; local and group ids are invariant
  }
}

}  // namespace

bool is_work_item_function(llvm::StringRef name) { return work_item_of(name) != WorkItem::none; }

llvm::Value* launch_global_id(llvm::IRBuilderBase& builder, unsigned dimension) {
  llvm::Module& module = *builder.GetInsertBlock()->getModule();
  llvm::LLVMContext& context = module.getContext();
  llvm::Type* size_type = module.getDataLayout().getIntPtrType(context);
  llvm::FunctionCallee callee = module.getOrInsertFunction(
      "_Z13get_global_idj",
      llvm::FunctionType::get(size_type, {llvm::Type::getInt32Ty(context)}, false));
  const auto convention = is_spir(module) ? llvm::CallingConv::SPIR_FUNC : llvm::CallingConv::C;
  if (auto* function = llvm::dyn_cast<llvm::Function>(callee.getCallee());
      function && function->isDeclaration())
    function->setCallingConv(convention);
  llvm::CallInst* call = builder.CreateCall(callee, {builder.getInt32(dimension)});
  if (auto* function = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    call->setCallingConv(function->getCallingConv());
  return call;
}

llvm::Value* launch_linear_id(llvm::IRBuilderBase& builder, const NdRange& fused) {
  llvm::Type* type = builder.GetInsertBlock()->getModule()->getDataLayout().getIntPtrType(
      builder.getContext());
  std::array<llvm::Value*, 3> id{};
  for (unsigned d = 0; d < 3; ++d)
    id[d] = builder.CreateSub(builder.CreateZExtOrTrunc(launch_global_id(builder, d), type),
                              llvm::ConstantInt::get(type, fused.offset[d]));
  llvm::Value* g0 = llvm::ConstantInt::get(type, fused.global[0]);
  llvm::Value* g1 = llvm::ConstantInt::get(type, fused.global[1]);
  return builder.CreateAdd(builder.CreateMul(builder.CreateAdd(builder.CreateMul(id[2], g1), id[1]), g0),
                           id[0]);
}

void remap_work_items(llvm::Module& module, const PlannedKernel& kernel, const NdRange& fused) {
  if (!kernel.remap_sizes && !kernel.remap_global_id) return;
  std::vector<std::pair<llvm::CallInst*, WorkItem>> calls;
  for (llvm::Function& function : module) {
    if (function.isDeclaration() || is_work_item_function(function.getName())) continue;
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
          if (const llvm::Function* callee = call->getCalledFunction())
            if (WorkItem what = work_item_of(callee->getName()); what != WorkItem::none)
              calls.emplace_back(call, what);
  }
  for (auto [call, what] : calls) {
    if (llvm::Value* value = replacement(*call, what, kernel, fused)) {
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
  }
}

}  // namespace plexus::fusion_llvm
