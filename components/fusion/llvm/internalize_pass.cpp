#include "internalize_pass.hpp"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>

#include <map>
#include <optional>
#include <vector>

namespace plexus::fusion_llvm {

namespace {

constexpr unsigned local_address_space = 3;

// The accesses through a promoted parameter: pointers derived from it by GEPs and bitcasts,
// and the loads and stores through them.
struct Accesses {
  std::vector<llvm::Instruction*> derived;  // GEPs and bitcasts, parents before children
  std::vector<llvm::Instruction*> memory;   // loads and stores
};

// Why `pointer` escapes, or nothing when all its uses can be remapped.
std::optional<std::string> collect(llvm::Value* pointer, Accesses& accesses) {
  for (llvm::User* user : pointer->users()) {
    auto* instruction = llvm::dyn_cast<llvm::Instruction>(user);
    if (!instruction) return std::string("it is used by a constant expression");
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(instruction)) {
      if (load->isVolatile() || load->isAtomic()) return std::string("it is accessed atomically");
      accesses.memory.push_back(load);
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(instruction)) {
      if (store->getValueOperand() == pointer) return std::string("the pointer is stored to memory");
      if (store->isVolatile() || store->isAtomic()) return std::string("it is accessed atomically");
      accesses.memory.push_back(store);
    } else if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(instruction)) {
      if (gep->getPointerOperand() != pointer) return std::string("it is used as a GEP index");
      accesses.derived.push_back(gep);
      if (auto why = collect(gep, accesses)) return why;
    } else if (llvm::isa<llvm::BitCastInst>(instruction)) {
      accesses.derived.push_back(instruction);
      if (auto why = collect(instruction, accesses)) return why;
    } else {
      return "the pointer escapes (" + std::string(instruction->getOpcodeName()) + ")";
    }
  }
  return std::nullopt;
}

// The byte offset a GEP adds to its pointer operand, as a value of type `index`.
llvm::Value* gep_offset(llvm::IRBuilderBase& builder, const llvm::DataLayout& layout,
                        llvm::GetElementPtrInst& gep, llvm::Type* index) {
  llvm::Value* total = llvm::ConstantInt::get(index, 0);
  for (auto it = llvm::gep_type_begin(gep), end = llvm::gep_type_end(gep); it != end; ++it) {
    llvm::Value* operand = it.getOperand();
    if (llvm::StructType* type = it.getStructTypeOrNull()) {
      const auto field = llvm::cast<llvm::ConstantInt>(operand)->getZExtValue();
      const std::uint64_t bytes = layout.getStructLayout(type)->getElementOffset(field);
      total = builder.CreateAdd(total, llvm::ConstantInt::get(index, bytes));
    } else {
      const std::uint64_t size = layout.getTypeAllocSize(it.getIndexedType()).getFixedSize();
      llvm::Value* scaled = builder.CreateMul(builder.CreateSExtOrTrunc(operand, index),
                                              llvm::ConstantInt::get(index, size));
      total = builder.CreateAdd(total, scaled);
    }
  }
  return total;
}

// Replaces the accesses of `parameter` by accesses of `storage` (i8* in its address space).
void remap(llvm::Argument& parameter, llvm::Value* storage, std::uint64_t bytes,
           const Accesses& accesses) {
  const llvm::DataLayout& layout = parameter.getParent()->getParent()->getDataLayout();
  llvm::LLVMContext& context = parameter.getContext();
  llvm::Type* index = layout.getIndexType(parameter.getType());
  std::map<llvm::Value*, llvm::Value*> offset{{&parameter, llvm::ConstantInt::get(index, 0)}};
  for (llvm::Instruction* derived : accesses.derived) {
    llvm::Value* base = derived->getOperand(0);
    llvm::IRBuilder<> builder(derived);
    llvm::Value* own = llvm::isa<llvm::GetElementPtrInst>(derived)
                           ? gep_offset(builder, layout, *llvm::cast<llvm::GetElementPtrInst>(derived), index)
                           : llvm::ConstantInt::get(index, 0);
    offset[derived] = builder.CreateAdd(offset.at(base), builder.CreateSExtOrTrunc(own, index));
  }
  const unsigned space = storage->getType()->getPointerAddressSpace();
  for (llvm::Instruction* access : accesses.memory) {
    llvm::IRBuilder<> builder(access);
    llvm::Value* old_pointer = llvm::getLoadStorePointerOperand(access);
    llvm::Value* wrapped =
        builder.CreateURem(offset.at(old_pointer), llvm::ConstantInt::get(index, bytes));
    llvm::Value* address = builder.CreateGEP(llvm::Type::getInt8Ty(context), storage, wrapped);
    llvm::Type* element = llvm::getLoadStoreType(access);
    address = builder.CreatePointerCast(address, element->getPointerTo(space));
    const llvm::Align original = llvm::getLoadStoreAlignment(access);
    const llvm::Align align = bytes % original.value() == 0 ? original : llvm::Align(1);
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(access)) {
      llvm::LoadInst* replacement = builder.CreateAlignedLoad(element, address, align);
      load->replaceAllUsesWith(replacement);
    } else {
      auto* store = llvm::cast<llvm::StoreInst>(access);
      builder.CreateAlignedStore(store->getValueOperand(), address, align);
    }
    access->eraseFromParent();
  }
  for (auto it = accesses.derived.rbegin(); it != accesses.derived.rend(); ++it)
    (*it)->eraseFromParent();
}

}  // namespace

llvm::PreservedAnalyses InternalizePass::run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
  llvm::Function* fused = module.getFunction(name_);
  if (!fused) return llvm::PreservedAnalyses::all();
  llvm::LLVMContext& context = module.getContext();
  bool changed = false;
  for (std::size_t a = 0; a < plan_.args.size(); ++a) {
    const PlannedArgument& planned = plan_.args[a];
    if (planned.promotion == Promotion::none) continue;
    const bool local = planned.promotion == Promotion::local_memory;
    llvm::Argument& parameter = *fused->getArg(a);
    Accesses accesses;
    if (auto why = collect(&parameter, accesses)) {
      refused_.push_back("argument " + std::to_string(planned.identity) + " is not promoted to " +
                         (local ? "local" : "private") + " memory: " + *why);
      continue;
    }
    llvm::ArrayType* type = llvm::ArrayType::get(llvm::Type::getInt8Ty(context), planned.promoted_bytes);
    llvm::Value* storage = nullptr;
    if (local) {
      auto* global = new llvm::GlobalVariable(
          module, type, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
          name_ + ".local" + std::to_string(planned.identity), nullptr,
          llvm::GlobalValue::NotThreadLocal, local_address_space);
      global->setAlignment(llvm::Align(16));
      storage = global;
    } else {
      llvm::IRBuilder<> entry(&*fused->getEntryBlock().getFirstInsertionPt());
      llvm::AllocaInst* alloca = entry.CreateAlloca(
          type, module.getDataLayout().getAllocaAddrSpace(), nullptr,
          "private" + std::to_string(planned.identity));
      alloca->setAlignment(llvm::Align(16));
      storage = alloca;
    }
    llvm::IRBuilder<> builder(&*fused->getEntryBlock().getFirstInsertionPt());
    if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(storage))
      builder.SetInsertPoint(alloca->getNextNode());
    const unsigned space = storage->getType()->getPointerAddressSpace();
    storage = builder.CreatePointerCast(storage, llvm::Type::getInt8PtrTy(context, space));
    remap(parameter, storage, planned.promoted_bytes, accesses);
    changed = true;
  }
  return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

}  // namespace plexus::fusion_llvm
