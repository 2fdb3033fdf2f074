#include "kernel_wrappers.hpp"

#include <llvm/IR/Attributes.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <array>
#include <cstddef>
#include <set>

#include "device_library/work_item_state.h"
#include "local_memory.hpp"
#include "plexus/error.hpp"

namespace plexus::host {

namespace {

constexpr char item_suffix[] = ".plexus_item";
constexpr char group_suffix[] = ".plexus_group";
constexpr char state_function[] = "__plexus_wi";
constexpr char barrier_function[] = "__plexus_barrier";
constexpr char sub_group_barrier_function[] = "__plexus_sub_group_barrier";

[[noreturn]] void fail(const std::string& message) {
  throw error(error_category::build, "host device: " + message);
}

llvm::FunctionType* entry_type(llvm::LLVMContext& context) {
  llvm::Type* pointer = llvm::PointerType::get(context, 0);
  return llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer, pointer}, false);
}

llvm::Function* make_entry(llvm::Module& module, const std::string& name) {
  if (module.getFunction(name)) fail("the module already defines '" + name + "'");
  llvm::Function* entry = llvm::Function::Create(entry_type(module.getContext()),
                                                 llvm::GlobalValue::ExternalLinkage, name, module);
  entry->addParamAttr(1, llvm::Attribute::NoAlias);
  entry->addFnAttr(llvm::Attribute::NoUnwind);
  return entry;
}

llvm::Value* state_field(llvm::IRBuilder<>& builder, llvm::Value* state, std::size_t offset) {
  return builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), state, offset);
}

// K.plexus_item(args, state): loads each argument from its slot and calls the kernel.
llvm::Function* make_item_entry(llvm::Function& kernel) {
  llvm::Module& module = *kernel.getParent();
  llvm::Function* entry = make_entry(module, kernel.getName().str() + item_suffix);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(module.getContext(), "entry", entry));
  llvm::Value* slots = entry->getArg(0);
  llvm::Value* state = entry->getArg(1);
  llvm::Type* pointer = builder.getPtrTy();
  // The argument slots and values do not change during a launch: marked invariant, their
  // loads leave the work-group loop (the kernel's stores cannot be seen to alias them
  // otherwise, and the loop would not vectorise).
  llvm::MDNode* invariant = llvm::MDNode::get(module.getContext(), {});
  auto load_invariant = [&](llvm::Type* type, llvm::Value* address, llvm::Align align) {
    llvm::LoadInst* load = builder.CreateAlignedLoad(type, address, align);
    load->setMetadata(llvm::LLVMContext::MD_invariant_load, invariant);
    return load;
  };
  std::vector<llvm::Value*> values;
  for (llvm::Argument& parameter : kernel.args()) {
    llvm::Value* slot = load_invariant(
        pointer, builder.CreateConstInBoundsGEP1_64(pointer, slots, parameter.getArgNo()),
        llvm::Align(8));
    llvm::Type* type = parameter.getType();
    if (parameter.hasByValAttr()) {
      values.push_back(builder.CreatePointerBitCastOrAddrSpaceCast(slot, type));
    } else if (type->isPointerTy() && type->getPointerAddressSpace() == local_address_space) {
      llvm::Value* offset = load_invariant(builder.getInt64Ty(), slot, llvm::Align(8));
      llvm::Value* base = builder.CreateAlignedLoad(
          builder.getInt64Ty(),
          state_field(builder, state, offsetof(plexus_work_item_state, local_base)),
          llvm::Align(8));
      values.push_back(builder.CreateIntToPtr(builder.CreateAdd(base, offset), type));
    } else {
      values.push_back(load_invariant(type, slot, llvm::Align(1)));
    }
  }
  llvm::CallInst* call = builder.CreateCall(&kernel, values);
  call->setCallingConv(kernel.getCallingConv());
  for (llvm::Argument& parameter : kernel.args())
    if (parameter.hasByValAttr())
      call->addParamAttr(
          parameter.getArgNo(),
          llvm::Attribute::getWithByValType(module.getContext(), parameter.getParamByValType()));
  builder.CreateRetVoid();
  return entry;
}

// K.plexus_group(args, state): for z, y, x over the local size, a private copy of the
// state gets the local id and the item entry runs (then inlined into the loop).
llvm::Function* make_group_entry(llvm::Function& item, const std::string& kernel_name) {
  llvm::Module& module = *item.getParent();
  llvm::LLVMContext& context = module.getContext();
  llvm::Function* entry = make_entry(module, kernel_name + group_suffix);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", entry));
  llvm::Value* slots = entry->getArg(0);
  llvm::Value* state = entry->getArg(1);
  llvm::Type* i64 = builder.getInt64Ty();
  llvm::AllocaInst* copy = builder.CreateAlloca(
      llvm::ArrayType::get(builder.getInt8Ty(), sizeof(plexus_work_item_state)));
  copy->setAlignment(llvm::Align(8));
  builder.CreateMemCpy(copy, llvm::Align(8), state, llvm::Align(8), sizeof(plexus_work_item_state));
  std::array<llvm::Value*, 3> sizes{};
  for (std::size_t d = 0; d < 3; ++d)
    sizes[d] = builder.CreateAlignedLoad(
        i64, state_field(builder, state, offsetof(plexus_work_item_state, local_size) + 8 * d),
        llvm::Align(8));
  std::array<llvm::PHINode*, 3> ids{};
  std::array<llvm::BasicBlock*, 3> headers{};
  for (int d = 2; d >= 0; --d) {
    llvm::BasicBlock* before = builder.GetInsertBlock();
    headers[d] = llvm::BasicBlock::Create(context, "loop" + std::to_string(d), entry);
    builder.CreateBr(headers[d]);
    builder.SetInsertPoint(headers[d]);
    ids[d] = builder.CreatePHI(i64, 2);
    ids[d]->addIncoming(builder.getInt64(0), before);
    builder.CreateAlignedStore(
        ids[d], state_field(builder, copy, offsetof(plexus_work_item_state, local_id) + 8 * d),
        llvm::Align(8));
  }
  llvm::CallInst* call = builder.CreateCall(&item, {slots, copy});
  for (std::size_t d = 0; d < 3; ++d) {
    llvm::Value* next = builder.CreateAdd(ids[d], builder.getInt64(1), "", true, true);
    llvm::BasicBlock* latch = builder.GetInsertBlock();
    llvm::BasicBlock* after = llvm::BasicBlock::Create(context, "end" + std::to_string(d), entry);
    builder.CreateCondBr(builder.CreateICmpULT(next, sizes[d]), headers[d], after);
    ids[d]->addIncoming(next, latch);
    builder.SetInsertPoint(after);
  }
  builder.CreateRetVoid();
  llvm::InlineFunctionInfo info;
  if (llvm::InlineResult result = llvm::InlineFunction(*call, info); !result.isSuccess())
    fail("kernel '" + kernel_name +
         "' could not be inlined into its work-group loop: " + result.getFailureReason());
  return entry;
}

void strip_target_attributes(llvm::Function& function) {
  // The JIT's target machine (the host CPU) decides; clang's baseline x86-64 features
  // would keep the code from using AVX.
  for (const char* name : {"target-cpu", "target-features", "tune-cpu"})
    function.removeFnAttr(name);
  function.removeFnAttr(llvm::Attribute::Convergent);
}

void inline_everything(llvm::Module& module, const std::set<llvm::Function*>& entries) {
  for (llvm::Function& function : module.functions()) {
    strip_target_attributes(function);
    if (function.isDeclaration() || entries.count(&function)) continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.removeFnAttr(llvm::Attribute::NoInline);
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
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
  llvm::ModulePassManager passes;
  passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  passes.run(module, modules);
  // Drop what is no longer called (the kernels and library functions, now inlined).
  for (bool erased = true; erased;) {
    erased = false;
    for (llvm::Function& function : llvm::make_early_inc_range(module.functions()))
      if (function.hasLocalLinkage() && function.use_empty()) {
        function.eraseFromParent();
        erased = true;
      }
  }
}

// Replaces __plexus_wi() in `entry` by its state parameter; true when it calls barrier (a
// work-group or sub-group one: both need the work-items as fibers).
bool bind_state(llvm::Function& entry, const std::string& kernel) {
  bool barrier = false;
  for (llvm::Instruction& instruction : llvm::make_early_inc_range(llvm::instructions(entry))) {
    auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    if (!call) continue;
    const llvm::Function* callee = call->getCalledFunction();
    if (!callee) fail("kernel '" + kernel + "' makes an indirect call, which OpenCL C forbids");
    if (callee->getName() == state_function) {
      call->replaceAllUsesWith(entry.getArg(1));
      call->eraseFromParent();
    } else if (callee->getName() == barrier_function ||
               callee->getName() == sub_group_barrier_function) {
      barrier = true;
    } else if (!callee->isDeclaration()) {
      fail("kernel '" + kernel + "' calls '" + callee->getName().str() +
           "' recursively; the host device needs every call inlined (OpenCL C has no recursion)");
    }
  }
  return barrier;
}

}  // namespace

std::vector<PreparedKernel> prepare_kernels(llvm::Module& module,
                                            const std::vector<KernelInfo>& kernels) {
  std::vector<PreparedKernel> prepared;
  std::vector<llvm::Function*> items;
  for (const KernelInfo& info : kernels) {
    llvm::Function* kernel = module.getFunction(info.name);
    if (!kernel || kernel->isDeclaration())
      fail("the module does not define the kernel '" + info.name + "' its description names");
    if (kernel->arg_size() != info.args.size())
      fail("kernel '" + info.name + "' has " + std::to_string(kernel->arg_size()) +
           " parameters in the module but " + std::to_string(info.args.size()) +
           " in its description");
    items.push_back(make_item_entry(*kernel));
    prepared.push_back({info.name, items.back()->getName().str(), false, 0});
  }
  inline_everything(module, std::set<llvm::Function*>(items.begin(), items.end()));
  for (std::size_t i = 0; i < items.size(); ++i) {
    PreparedKernel& kernel = prepared[i];
    kernel.uses_barriers = bind_state(*items[i], kernel.name);
    kernel.static_local_bytes = place_local_variables(*items[i], *items[i]->getArg(1));
    if (!kernel.uses_barriers) {
      kernel.entry = make_group_entry(*items[i], kernel.name)->getName().str();
      items[i]->setLinkage(llvm::GlobalValue::InternalLinkage);  // inlined: dropped later
    }
  }
  for (llvm::GlobalVariable& variable : llvm::make_early_inc_range(module.globals()))
    if (variable.getAddressSpace() == local_address_space && variable.use_empty())
      variable.eraseFromParent();
  if (llvm::Function* state = module.getFunction(state_function); state && state->use_empty())
    state->eraseFromParent();
  return prepared;
}

}  // namespace plexus::host
