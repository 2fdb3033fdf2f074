#include "bounds_checks.hpp"

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <algorithm>
#include <optional>
#include <string>

#include "address_spaces.hpp"
#include "argument_writes.hpp"
#include "kernel_inspector.hpp"
#include "kernel_parameter.hpp"
#include "module_pass.hpp"
#include "switch_option.hpp"
#include "plexus/error.hpp"
#include "plexus/kernel_checks.hpp"

namespace plexus::compiler_shared {

namespace {

namespace kc = plexus::kernel_checks;

// Every function the kernels call, inlined into them (OpenCL C has no recursion), and
// their private variables promoted to values: pointers are then traced to their origin.
void inline_and_promote(llvm::Module& module) {
  for (llvm::Function& function : module) {
    if (function.isDeclaration() || KernelInspector::is_kernel(function)) continue;
    function.removeFnAttr(llvm::Attribute::NoInline);
    function.removeFnAttr(llvm::Attribute::OptimizeNone);
    function.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  run_module_pass(module, llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  for (llvm::Function& function : module) {
    if (function.isDeclaration() || !KernelInspector::is_kernel(function)) continue;
    std::vector<llvm::AllocaInst*> promotable;
    for (llvm::Instruction& instruction : function.getEntryBlock())
      if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
          slot && llvm::isAllocaPromotable(slot))
        promotable.push_back(slot);
    if (promotable.empty()) continue;
    llvm::DominatorTree dominators(function);
    llvm::PromoteMemToReg(promotable, dominators);
  }
}

// `kernel` again with the record as a last parameter; the old function is gone.
llvm::Function* with_record_parameter(llvm::Function& kernel) {
  llvm::Type* byte = llvm::Type::getInt8Ty(kernel.getContext());
  llvm::Function* checked = with_last_parameter(
      kernel, {llvm::PointerType::get(byte, global_address_space), global_address_space, "uchar*",
               kc::parameter_name});
  checked->getArg(checked->arg_size() - 1)->addAttr(llvm::Attribute::NoAlias);
  return checked;
}

// Where a pointer may point: a pointer parameter (its index) or a global variable.
struct Origin {
  int argument = -1;
  llvm::GlobalVariable* variable = nullptr;
  bool operator==(const Origin&) const = default;
};

// The functions the instrumentation calls, made once per module.
class Helpers {
 public:
  explicit Helpers(llvm::Module& module) : module_(module), context_(module.getContext()) {
    spir_ = llvm::Triple(module.getTargetTriple()).isSPIR();
    record_type_ = llvm::PointerType::get(llvm::Type::getInt8Ty(context_), global_address_space);
  }

  // i1 (record, i32 argument, i64 offset, i64 bytes, i1 write): the access is allowed.
  llvm::Function* allowed() {
    if (!allowed_) make_allowed();
    return allowed_;
  }
  // void (record, i32 argument, i64 offset, i64 bytes, i32 kind, i64 variable bytes).
  llvm::Function* report() {
    if (!report_) make_report();
    return report_;
  }
  // The u64 word `word` of argument `argument`'s bounds, loaded at `builder`'s position.
  llvm::Value* word(llvm::IRBuilder<>& builder, llvm::Value* record, llvm::Value* argument,
                    std::size_t word) {
    llvm::Value* at = builder.CreateAdd(
        builder.CreateMul(builder.CreateZExt(argument, builder.getInt64Ty()),
                          builder.getInt64(kc::argument_bytes)),
        builder.getInt64(kc::header_bytes + word * 8));
    return load_u64(builder, record, at, /*invariant=*/true);
  }

 private:
  llvm::Function* helper(const char* name, llvm::FunctionType* type) {
    llvm::Function* function =
        llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, name, module_);
    if (spir_) function->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    function->addFnAttr(llvm::Attribute::NoUnwind);
    return function;
  }

  llvm::Value* field(llvm::IRBuilder<>& builder, llvm::Value* record, llvm::Value* at,
                     llvm::Type* type) {
    llvm::Value* byte = builder.CreateGEP(builder.getInt8Ty(), record, at);
    return builder.CreateBitCast(byte, llvm::PointerType::get(type, global_address_space));
  }

  llvm::Value* load_u64(llvm::IRBuilder<>& builder, llvm::Value* record, llvm::Value* at,
                        bool invariant) {
    llvm::LoadInst* load = builder.CreateAlignedLoad(
        builder.getInt64Ty(), field(builder, record, at, builder.getInt64Ty()), llvm::Align(8));
    if (invariant)
      load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(context_, {}));
    return load;
  }

  void store(llvm::IRBuilder<>& builder, llvm::Value* record, std::size_t at, llvm::Value* value) {
    builder.CreateAlignedStore(
        value, field(builder, record, builder.getInt64(at), value->getType()),
        llvm::Align(value->getType()->getPrimitiveSizeInBits() / 8));
  }

  void make_allowed() {
    llvm::IRBuilder<> builder(context_);
    auto* type = llvm::FunctionType::get(
        builder.getInt1Ty(),
        {record_type_, builder.getInt32Ty(), builder.getInt64Ty(), builder.getInt64Ty(),
         builder.getInt1Ty()},
        false);
    allowed_ = helper("__plexus_check_allowed", type);
    llvm::Value* record = allowed_->getArg(0);
    llvm::Value* offset = allowed_->getArg(2);
    llvm::Value* bytes = allowed_->getArg(3);
    llvm::Value* write = allowed_->getArg(4);
    // The argument's own range, then each further range of its buffer the command group
    // declared (the chain of `next` entries), until one allows the access.
    auto* entry = llvm::BasicBlock::Create(context_, "entry", allowed_);
    auto* range = llvm::BasicBlock::Create(context_, "range", allowed_);
    auto* in_range = llvm::BasicBlock::Create(context_, "in_range", allowed_);
    auto* boxed = llvm::BasicBlock::Create(context_, "box", allowed_);
    auto* advance = llvm::BasicBlock::Create(context_, "next", allowed_);
    auto* yes = llvm::BasicBlock::Create(context_, "yes", allowed_);
    auto* no = llvm::BasicBlock::Create(context_, "no", allowed_);
    builder.SetInsertPoint(entry);
    builder.CreateBr(range);
    builder.SetInsertPoint(range);
    llvm::PHINode* at = builder.CreatePHI(builder.getInt32Ty(), 2, "entry_index");
    at->addIncoming(allowed_->getArg(1), entry);
    auto w = [&](std::size_t index) { return word(builder, record, at, index); };
    llvm::Value* flags = w(kc::flags);
    llvm::Value* inside =
        builder.CreateAnd(builder.CreateICmpSGE(offset, w(kc::lo)),
                          builder.CreateICmpSLE(builder.CreateAdd(offset, bytes), w(kc::hi)));
    llvm::Value* may_write = builder.CreateOr(
        builder.CreateNot(write),
        builder.CreateICmpNE(builder.CreateAnd(flags, builder.getInt64(kc::writable)),
                             builder.getInt64(0)));
    builder.CreateCondBr(builder.CreateAnd(inside, may_write), in_range, advance);
    builder.SetInsertPoint(in_range);
    builder.CreateCondBr(builder.CreateICmpNE(builder.CreateAnd(flags, builder.getInt64(kc::box)),
                                              builder.getInt64(0)),
                         boxed, yes);
    builder.SetInsertPoint(boxed);
    // The first and last byte's elements lie in the box: (i0, i1, i2) from the linear
    // element index, dimension 0 the slowest.
    llvm::Value* element = w(kc::element_size);
    llvm::Value* extent1 = w(kc::extent + 1);
    llvm::Value* extent2 = w(kc::extent + 2);
    auto in_box = [&](llvm::Value* byte) {
      llvm::Value* linear = builder.CreateUDiv(byte, element);
      llvm::Value* i2 = builder.CreateURem(linear, extent2);
      llvm::Value* rest = builder.CreateUDiv(linear, extent2);
      llvm::Value* i1 = builder.CreateURem(rest, extent1);
      llvm::Value* i0 = builder.CreateUDiv(rest, extent1);
      llvm::Value* ok = builder.getTrue();
      llvm::Value* index[3] = {i0, i1, i2};
      for (std::size_t d = 0; d < 3; ++d)
        ok = builder.CreateAnd(
            ok, builder.CreateICmpULT(builder.CreateSub(index[d], w(kc::box_offset + d)),
                                      w(kc::box_extent + d)));
      return ok;
    };
    llvm::Value* last = builder.CreateSub(builder.CreateAdd(offset, bytes), builder.getInt64(1));
    builder.CreateCondBr(builder.CreateAnd(in_box(offset), in_box(last)), yes, advance);
    builder.SetInsertPoint(advance);
    llvm::Value* next = builder.CreateTrunc(w(kc::next), builder.getInt32Ty());
    at->addIncoming(next, advance);
    builder.CreateCondBr(builder.CreateICmpEQ(next, builder.getInt32(0)), no, range);
    builder.SetInsertPoint(yes);
    builder.CreateRet(builder.getTrue());
    builder.SetInsertPoint(no);
    builder.CreateRet(builder.getFalse());
  }

  llvm::FunctionCallee global_id() {
    const char* name = "_Z13get_global_idj";
    llvm::Function* function = module_.getFunction(name);
    if (!function) {
      auto* type = llvm::FunctionType::get(llvm::Type::getInt64Ty(context_),
                                           {llvm::Type::getInt32Ty(context_)}, false);
      function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, module_);
      if (spir_) function->setCallingConv(llvm::CallingConv::SPIR_FUNC);
      function->addFnAttr(llvm::Attribute::NoUnwind);
    }
    return function;
  }

  void make_report() {
    llvm::IRBuilder<> builder(context_);
    auto* type = llvm::FunctionType::get(
        builder.getVoidTy(),
        {record_type_, builder.getInt32Ty(), builder.getInt64Ty(), builder.getInt64Ty(),
         builder.getInt32Ty(), builder.getInt64Ty()},
        false);
    report_ = helper("__plexus_check_report", type);
    llvm::Value* record = report_->getArg(0);
    auto* entry = llvm::BasicBlock::Create(context_, "entry", report_);
    auto* first = llvm::BasicBlock::Create(context_, "first", report_);
    auto* done = llvm::BasicBlock::Create(context_, "done", report_);
    builder.SetInsertPoint(entry);
    // Only the first violation is kept: the work-item that turns `violated` from 0 to 1.
    llvm::Value* exchange = builder.CreateAtomicCmpXchg(
        field(builder, record, builder.getInt64(kc::violated_at), builder.getInt32Ty()),
        builder.getInt32(0), builder.getInt32(1), llvm::MaybeAlign(4),
        llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic);
    builder.CreateCondBr(builder.CreateExtractValue(exchange, 1), first, done);
    builder.SetInsertPoint(first);
    store(builder, record, kc::argument_at, report_->getArg(1));
    store(builder, record, kc::offset_at, report_->getArg(2));
    store(builder, record, kc::size_at, report_->getArg(3));
    store(builder, record, kc::kind_at, report_->getArg(4));
    store(builder, record, kc::variable_bytes_at, report_->getArg(5));
    llvm::FunctionCallee id = global_id();
    for (unsigned d = 0; d < 3; ++d) {
      llvm::CallInst* call = builder.CreateCall(id, {builder.getInt32(d)});
      call->setCallingConv(llvm::cast<llvm::Function>(id.getCallee())->getCallingConv());
      store(builder, record, kc::global_id_at + 8 * d, call);
    }
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRetVoid();
  }

  llvm::Module& module_;
  llvm::LLVMContext& context_;
  bool spir_ = false;
  llvm::Type* record_type_ = nullptr;
  llvm::Function* allowed_ = nullptr;
  llvm::Function* report_ = nullptr;
};

// One memory access of a kernel: `bytes` at `pointer`, read or written.
struct Access {
  llvm::Instruction* instruction = nullptr;
  llvm::Value* pointer = nullptr;
  llvm::Value* bytes = nullptr;  // i64
  bool write = false;
};

// Bytes of the OpenCL C scalar type an Itanium mangling ends with (f: float, Dh: half, ...).
std::uint64_t scalar_bytes(llvm::StringRef mangled) {
  if (mangled.endswith("Dh")) return 2;
  switch (mangled.empty() ? '?' : mangled.back()) {
    case 'c': case 'a': case 'h': return 1;
    case 's': case 't': return 2;
    case 'i': case 'j': case 'f': return 4;
    case 'l': case 'm': case 'd': return 8;
    default: return 0;
  }
}

// What a call of an OpenCL builtin accesses through a pointer: vloadN/vstoreN (and their
// _half forms), atomic_*/atom_*. Nothing for the others.
std::optional<Access> builtin_access(llvm::CallBase& call, llvm::IRBuilder<>& builder) {
  const llvm::Function* callee = call.getCalledFunction();
  if (!callee || !callee->isDeclaration() || callee->isIntrinsic()) return std::nullopt;
  const llvm::StringRef mangled = callee->getName();
  const llvm::StringRef name = builtin_name(mangled);
  builder.SetInsertPoint(&call);
  if ((name.startswith("atomic_") || name.startswith("atom_")) && call.arg_size() > 0 &&
      call.getArgOperand(0)->getType()->isPointerTy()) {
    // The value's type (the last parameter's) sizes the access: atomic_add(p, int).
    const std::uint64_t bytes = scalar_bytes(mangled);
    if (bytes == 0) return std::nullopt;
    return Access{&call, call.getArgOperand(0), builder.getInt64(bytes),
                  !name.startswith("atomic_load")};
  }
  const bool load = name.startswith("vload"), store = name.startswith("vstore");
  if (!load && !store) return std::nullopt;
  const bool half = name.contains("half");
  // The vector width: vload4, vstore_half8_rte; none (1) for vload_half.
  const llvm::StringRef digits = name.drop_while([](char c) { return c < '0' || c > '9'; })
                                     .take_while([](char c) { return c >= '0' && c <= '9'; });
  unsigned count = 1;
  if (!digits.empty() && digits.getAsInteger(10, count)) count = 1;
  // vloada_half3/vstorea_half3 step by 4 halves.
  if ((name.startswith("vstorea_half") || name.startswith("vloada_half")) && count == 3) count = 4;
  const std::uint64_t element = half ? 2 : scalar_bytes(mangled);
  const unsigned pointer_index = load ? 1 : 2, offset_index = load ? 0 : 1;
  if (element == 0 || call.arg_size() <= pointer_index) return std::nullopt;
  const std::uint64_t bytes = element * count;
  llvm::Value* pointer = call.getArgOperand(pointer_index);
  llvm::Value* offset = builder.CreateMul(
      builder.CreateZExtOrTrunc(call.getArgOperand(offset_index), builder.getInt64Ty()),
      builder.getInt64(bytes));
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  llvm::Value* bytewise =
      builder.CreateBitCast(pointer, llvm::PointerType::get(builder.getInt8Ty(), space));
  return Access{&call, builder.CreateGEP(builder.getInt8Ty(), bytewise, offset),
                builder.getInt64(bytes), store};
}

std::vector<Access> accesses_of(llvm::Function& kernel) {
  const llvm::DataLayout& layout = kernel.getParent()->getDataLayout();
  llvm::IRBuilder<> builder(kernel.getContext());
  auto size_of = [&](llvm::Type* type) {
    return builder.getInt64(layout.getTypeStoreSize(type).getFixedSize());
  };
  std::vector<Access> found;
  for (llvm::Instruction& instruction : llvm::instructions(kernel)) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      found.push_back({load, load->getPointerOperand(), size_of(load->getType()), false});
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
      found.push_back(
          {store, store->getPointerOperand(), size_of(store->getValueOperand()->getType()), true});
    } else if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction)) {
      found.push_back({rmw, rmw->getPointerOperand(), size_of(rmw->getValOperand()->getType()), true});
    } else if (auto* exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction)) {
      found.push_back({exchange, exchange->getPointerOperand(),
                       size_of(exchange->getCompareOperand()->getType()), true});
    } else if (auto* memory = llvm::dyn_cast<llvm::MemIntrinsic>(&instruction)) {
      builder.SetInsertPoint(memory);
      llvm::Value* length = builder.CreateZExtOrTrunc(memory->getLength(), builder.getInt64Ty());
      found.push_back({memory, memory->getRawDest(), length, true});
      if (auto* transfer = llvm::dyn_cast<llvm::MemTransferInst>(memory))
        found.push_back({memory, transfer->getRawSource(), length, false});
    } else if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
      if (std::optional<Access> access = builtin_access(*call, builder)) found.push_back(*access);
    }
  }
  return found;
}

// Where `pointer` may point: nullopt when an origin is unknown; empty when only private.
std::optional<std::vector<Origin>> origins_of(llvm::Value* pointer, llvm::Function& kernel,
                                              const KernelInfo& info) {
  llvm::SmallVector<const llvm::Value*, 4> objects;
  llvm::getUnderlyingObjects(pointer, objects, nullptr, 0);
  std::vector<Origin> origins;
  for (const llvm::Value* object : objects) {
    Origin origin;
    if (const auto* argument = llvm::dyn_cast<llvm::Argument>(object);
        argument && argument->getParent() == &kernel && argument->getArgNo() < info.args.size()) {
      const KernelArgKind kind = info.args[argument->getArgNo()].kind;
      if (kind != KernelArgKind::global_pointer && kind != KernelArgKind::constant_pointer &&
          kind != KernelArgKind::local_pointer)
        return std::nullopt;
      origin.argument = static_cast<int>(argument->getArgNo());
    } else if (const auto* variable = llvm::dyn_cast<llvm::GlobalVariable>(object)) {
      origin.variable = const_cast<llvm::GlobalVariable*>(variable);
    } else if (llvm::isa<llvm::AllocaInst>(object)) {
      continue;  // private memory: not checked
    } else {
      return std::nullopt;
    }
    if (std::find(origins.begin(), origins.end(), origin) == origins.end())
      origins.push_back(origin);
  }
  return origins;
}

// The access, run only when it is within one of `origins`; otherwise its violation is
// recorded and a load gives 0.
void guard(const Access& access, const std::vector<Origin>& origins, llvm::Function& kernel,
           Helpers& helpers) {
  llvm::LLVMContext& context = kernel.getContext();
  const llvm::DataLayout& layout = kernel.getParent()->getDataLayout();
  llvm::Value* record = kernel.getArg(kernel.arg_size() - 1);
  llvm::Instruction* instruction = access.instruction;
  llvm::BasicBlock* head = instruction->getParent();
  llvm::BasicBlock* run = head->splitBasicBlock(instruction, "check.run");
  llvm::BasicBlock* next = run->splitBasicBlock(instruction->getNextNode(), "check.next");
  head->getTerminator()->eraseFromParent();
  llvm::IRBuilder<> builder(head);

  std::vector<llvm::Value*> offsets;
  llvm::Value* fast = builder.getFalse();
  for (const Origin& origin : origins) {
    llvm::Value* base =
        origin.variable ? static_cast<llvm::Value*>(origin.variable) : kernel.getArg(origin.argument);
    base = builder.CreatePointerBitCastOrAddrSpaceCast(base, access.pointer->getType());
    llvm::Value* offset = builder.CreateSub(builder.CreatePtrToInt(access.pointer, builder.getInt64Ty()),
                                            builder.CreatePtrToInt(base, builder.getInt64Ty()));
    offsets.push_back(offset);
    llvm::Value* end = builder.CreateAdd(offset, access.bytes);
    llvm::Value* ok = nullptr;
    if (origin.variable) {
      const std::uint64_t size = layout.getTypeAllocSize(origin.variable->getValueType()).getFixedSize();
      ok = builder.CreateAnd(builder.CreateICmpSGE(offset, builder.getInt64(0)),
                             builder.CreateICmpSLE(end, builder.getInt64(size)));
    } else {
      llvm::Value* argument = builder.getInt32(origin.argument);
      llvm::Value* flags = helpers.word(builder, record, argument, kc::flags);
      ok = builder.CreateAnd(builder.CreateICmpSGE(offset, helpers.word(builder, record, argument, kc::lo)),
                             builder.CreateICmpSLE(end, helpers.word(builder, record, argument, kc::hi)));
      // Writes where writable, and no box to look into.
      const std::uint64_t mask = access.write ? kc::writable | kc::box : kc::box;
      const std::uint64_t needed = access.write ? kc::writable : 0;
      ok = builder.CreateAnd(ok, builder.CreateICmpEQ(builder.CreateAnd(flags, builder.getInt64(mask)),
                                                      builder.getInt64(needed)));
    }
    fast = builder.CreateOr(fast, ok);
  }
  auto* slow = llvm::BasicBlock::Create(context, "check.slow", &kernel, next);
  auto* report = llvm::BasicBlock::Create(context, "check.report", &kernel, next);
  builder.CreateCondBr(fast, run, slow);

  builder.SetInsertPoint(slow);
  llvm::Value* allowed = builder.getFalse();
  for (std::size_t i = 0; i < origins.size(); ++i) {
    if (origins[i].variable) continue;  // the fast check was exact
    llvm::CallInst* call = builder.CreateCall(
        helpers.allowed(), {record, builder.getInt32(origins[i].argument), offsets[i], access.bytes,
                            builder.getInt1(access.write)});
    call->setCallingConv(helpers.allowed()->getCallingConv());
    allowed = builder.CreateOr(allowed, call);
  }
  builder.CreateCondBr(allowed, run, report);

  builder.SetInsertPoint(report);
  const Origin& first = origins.front();
  llvm::Value* kind = builder.getInt32(kc::outside);
  std::uint64_t variable_bytes = 0;
  if (first.variable) {
    variable_bytes = layout.getTypeAllocSize(first.variable->getValueType()).getFixedSize();
  } else if (access.write) {
    // Inside the bounds as a read: a store through a read-only argument.
    llvm::CallInst* as_read = builder.CreateCall(
        helpers.allowed(), {record, builder.getInt32(first.argument), offsets[0], access.bytes,
                            builder.getFalse()});
    as_read->setCallingConv(helpers.allowed()->getCallingConv());
    kind = builder.CreateSelect(as_read, builder.getInt32(kc::read_only_store), kind);
  }
  llvm::CallInst* call = builder.CreateCall(
      helpers.report(),
      {record, builder.getInt32(first.variable ? kc::no_argument : std::uint32_t(first.argument)),
       offsets[0], access.bytes, kind, builder.getInt64(variable_bytes)});
  call->setCallingConv(helpers.report()->getCallingConv());
  builder.CreateBr(next);

  if (!instruction->getType()->isVoidTy() && !instruction->use_empty()) {
    llvm::PHINode* value = llvm::PHINode::Create(instruction->getType(), 2, "", &next->front());
    instruction->replaceAllUsesWith(value);
    value->addIncoming(instruction, run);
    value->addIncoming(llvm::Constant::getNullValue(instruction->getType()), report);
  }
}

}  // namespace

bool add_bounds_checks(llvm::Module& module, std::vector<KernelInfo>& kernels, DiagnosticLog& log) {
  inline_and_promote(module);
  for (llvm::Function& function : module) {
    for (llvm::Instruction& instruction : llvm::instructions(function)) {
      const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
      if (callee && KernelInspector::is_kernel(*callee)) {
        log.error("checked kernels: kernel '" + callee->getName().str() + "' is called by '" +
                  function.getName().str() +
                  "'; a kernel that another calls cannot take the check record");
        return false;
      }
    }
  }
  Helpers helpers(module);
  const unsigned pointer_bytes = module.getDataLayout().getPointerSize(global_address_space);
  for (KernelInfo& info : kernels) {
    llvm::Function* original = module.getFunction(info.name);
    if (!original || original->isDeclaration()) continue;
    llvm::Function* kernel = with_record_parameter(*original);
    std::size_t unchecked = 0;
    for (const Access& access : accesses_of(*kernel)) {
      const std::optional<std::vector<Origin>> origins = origins_of(access.pointer, *kernel, info);
      if (!origins) {
        ++unchecked;
      } else if (!origins->empty()) {
        guard(access, *origins, *kernel, helpers);
      }
    }
    if (unchecked > 0)
      log.warning("checked kernels: " + std::to_string(unchecked) + " memory access" +
                  (unchecked == 1 ? " of kernel '" : "es of kernel '") + info.name +
                  "' are not checked: their pointers do not come from a parameter or a "
                  "variable of the kernel");
    info.args.push_back({kc::parameter_name, KernelArgKind::global_pointer, pointer_bytes});
    info.bounds_checked = true;
  }
  return true;
}

bool bounds_checks_enabled(const ComponentOptions& options) {
  return switch_option(options, "checks", "bounds", "PLEXUS_KERNEL_CHECKS", "checked kernels",
                       "unchecked");
}

}  // namespace plexus::compiler_shared
