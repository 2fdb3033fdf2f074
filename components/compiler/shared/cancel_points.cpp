#include "cancel_points.hpp"

#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>

#include "address_spaces.hpp"
#include "kernel_inspector.hpp"
#include "kernel_parameter.hpp"
#include "switch_option.hpp"
#include "plexus/kernel_cancel.hpp"

namespace plexus::compiler_shared {

namespace {

namespace kcancel = plexus::kernel_cancel;
constexpr std::uint64_t clk_local_mem_fence = 1;

// An OpenCL builtin of the SPIR mangling (spir_func), declared when the module lacks it.
llvm::FunctionCallee builtin(llvm::Module& module, llvm::StringRef name, llvm::Type* result,
                             llvm::ArrayRef<llvm::Type*> parameters, bool convergent) {
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(name, llvm::FunctionType::get(result, parameters, false));
  if (auto* function = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    function->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    if (convergent) function->addFnAttr(llvm::Attribute::Convergent);
  }
  return callee;
}

llvm::CallInst* call(llvm::IRBuilder<>& builder, llvm::FunctionCallee callee,
                     llvm::ArrayRef<llvm::Value*> arguments) {
  llvm::CallInst* made = builder.CreateCall(callee, arguments);
  made->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return made;
}

// The kernels another function calls: they keep their signature.
bool called_by_another(const llvm::Function& kernel) {
  for (const llvm::User* user : kernel.users()) {
    if (llvm::isa<llvm::CallBase>(user)) return true;
    if (auto* cast = llvm::dyn_cast<llvm::ConstantExpr>(user); cast && !cast->use_empty())
      return true;
  }
  return false;
}

// The prologue (cancel_points.hpp) before the kernel's entry block.
void add_prologue(llvm::Function& kernel) {
  llvm::Module& module = *kernel.getParent();
  llvm::LLVMContext& context = kernel.getContext();
  llvm::Type* word = llvm::Type::getInt32Ty(context);
  llvm::Type* size_type = module.getDataLayout().getIntPtrType(context);
  llvm::Argument* cell = kernel.getArg(kernel.arg_size() - 1);
  auto* seen = new llvm::GlobalVariable(
      module, word, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(word),
      "__plexus_cancel_seen." + kernel.getName(), nullptr, llvm::GlobalValue::NotThreadLocal,
      local_address_space);
  seen->setAlignment(llvm::Align(4));

  llvm::BasicBlock* body = &kernel.getEntryBlock();
  auto* check = llvm::BasicBlock::Create(context, "plexus.cancel.check", &kernel, body);
  auto* read = llvm::BasicBlock::Create(context, "plexus.cancel.read", &kernel, body);
  auto* count = llvm::BasicBlock::Create(context, "plexus.cancel.count", &kernel, body);
  auto* sync = llvm::BasicBlock::Create(context, "plexus.cancel.sync", &kernel, body);
  auto* stop = llvm::BasicBlock::Create(context, "plexus.cancel.stop", &kernel, body);
  // Allocas stay in the entry block (the new one): promotion and the drivers look there.
  llvm::SmallVector<llvm::Instruction*, 8> allocas;
  for (llvm::Instruction& instruction : *body)
    if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
        slot && llvm::isa<llvm::ConstantInt>(slot->getArraySize()))
      allocas.push_back(slot);

  llvm::IRBuilder<> builder(check);
  for (llvm::Instruction* slot : allocas) slot->moveBefore(*check, check->end());
  const llvm::FunctionCallee local_id =
      builtin(module, "_Z12get_local_idj", size_type, {word}, false);
  llvm::Value* first = builder.getTrue();
  for (unsigned d = 0; d < 3; ++d) {
    llvm::Value* id = call(builder, local_id, {builder.getInt32(d)});
    first = builder.CreateAnd(first, builder.CreateICmpEQ(id, llvm::ConstantInt::get(size_type, 0)));
  }
  builder.CreateCondBr(first, read, sync);

  builder.SetInsertPoint(read);
  llvm::Value* requested_at = builder.CreateConstInBoundsGEP1_32(word, cell, kcancel::requested_word);
  llvm::LoadInst* requested = builder.CreateAlignedLoad(word, requested_at, llvm::Align(4));
  requested->setAtomic(llvm::AtomicOrdering::Monotonic);
  builder.CreateAlignedStore(requested, seen, llvm::Align(4));
  builder.CreateCondBr(builder.CreateICmpNE(requested, builder.getInt32(0)), count, sync);

  builder.SetInsertPoint(count);
  llvm::Value* skipped_at = builder.CreateConstInBoundsGEP1_32(word, cell, kcancel::skipped_word);
  builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, skipped_at, builder.getInt32(1),
                          llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic);
  builder.CreateBr(sync);

  builder.SetInsertPoint(sync);
  const llvm::FunctionCallee barrier =
      builtin(module, "_Z7barrierj", builder.getVoidTy(), {word}, true);
  call(builder, barrier, {builder.getInt32(clk_local_mem_fence)})
      ->addFnAttr(llvm::Attribute::Convergent);
  llvm::Value* cancelled = builder.CreateAlignedLoad(word, seen, llvm::Align(4));
  builder.CreateCondBr(builder.CreateICmpNE(cancelled, builder.getInt32(0)), stop, body);

  builder.SetInsertPoint(stop);
  builder.CreateRetVoid();
}

}  // namespace

void add_cancel_points(llvm::Module& module, std::vector<KernelInfo>& kernels, DiagnosticLog& log) {
  for (KernelInfo& info : kernels) {
    if (info.cancellable) continue;  // made by this pass before (a SPIR-V input)
    llvm::Function* original = module.getFunction(info.name);
    if (!original || original->isDeclaration() || !original->getReturnType()->isVoidTy())
      continue;
    if (called_by_another(*original)) {
      log.warning("cancellable kernels: kernel '" + info.name +
                  "' is called by another function, so it takes no cancel cell: a launch of it "
                  "runs to its end when cancelled");
      continue;
    }
    llvm::Type* cell = llvm::Type::getInt32Ty(module.getContext());
    llvm::Function* kernel = with_last_parameter(
        *original, {llvm::PointerType::get(cell, global_address_space), global_address_space,
                    "uint*", kcancel::parameter_name});
    add_prologue(*kernel);
    info.cancellable = true;
  }
}

bool takes_cancel_points(BinaryFormat format) {
  return format == BinaryFormat::spirv || format == BinaryFormat::spir_bitcode;
}

bool cancel_points_enabled(const ComponentOptions& options) {
  return switch_option(options, "cancel", "work_group", "PLEXUS_KERNEL_CANCEL",
                       "cancellable kernels", "not cancellable");
}

}  // namespace plexus::compiler_shared
