#include "argument_writes.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Argument.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

namespace plexus::compiler_shared {

llvm::StringRef builtin_name(llvm::StringRef mangled) {
  if (!mangled.consume_front("_Z")) return mangled;
  std::size_t length = 0;
  std::size_t digits = 0;
  while (digits < mangled.size() && mangled[digits] >= '0' && mangled[digits] <= '9')
    length = length * 10 + static_cast<std::size_t>(mangled[digits++] - '0');
  if (digits == 0 || digits + length > mangled.size()) return mangled;
  return mangled.substr(digits, length);
}

namespace {

// Whether the declared OpenCL builtin `name` writes through its pointer argument `index`.
bool builtin_writes(llvm::StringRef name, unsigned index) {
  if (name.startswith("vstore")) return true;  // vstoreN, vstore_half*, vstorea_half*
  if (name.startswith("atomic_") || name.startswith("atom_"))
    return !name.startswith("atomic_load") && !name.startswith("atomic_flag_test");
  if (name.startswith("async_work_group")) return index == 0;  // the destination
  return name == "fract" || name == "modf" || name == "sincos" || name == "frexp" ||
         name == "lgamma_r" || name == "remquo";
}

}  // namespace

bool stores_through(const llvm::Argument& parameter) {
  llvm::SmallVector<const llvm::Value*, 16> pending{&parameter};
  llvm::SmallPtrSet<const llvm::Value*, 32> seen;
  while (!pending.empty()) {
    const llvm::Value* pointer = pending.pop_back_val();
    if (!seen.insert(pointer).second) continue;
    for (const llvm::Use& use : pointer->uses()) {
      const llvm::User* user = use.getUser();
      if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (use.getOperandNo() == store->getPointerOperandIndex()) return true;
        // The pointer kept in a private variable: what loads it holds it too.
        if (const auto* slot = llvm::dyn_cast<llvm::AllocaInst>(
                llvm::getUnderlyingObject(store->getPointerOperand()))) {
          for (const llvm::User* slot_user : slot->users())
            if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(slot_user)) pending.push_back(load);
        }
      } else if (const auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(user)) {
        if (use.getOperandNo() == rmw->getPointerOperandIndex()) return true;
      } else if (const auto* exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(user)) {
        if (use.getOperandNo() == exchange->getPointerOperandIndex()) return true;
      } else if (llvm::isa<llvm::MemIntrinsic>(user)) {
        if (use.getOperandNo() == 0) return true;  // the destination
      } else if (const auto* call = llvm::dyn_cast<llvm::CallBase>(user)) {
        const llvm::Function* callee = call->getCalledFunction();
        if (!callee || !call->isArgOperand(&use)) continue;
        const unsigned index = call->getArgOperandNo(&use);
        if (!callee->isDeclaration()) {
          if (index < callee->arg_size()) pending.push_back(callee->getArg(index));
        } else if (!callee->isIntrinsic() && builtin_writes(builtin_name(callee->getName()), index)) {
          return true;
        }
      } else if (llvm::isa<llvm::GEPOperator>(user) || llvm::isa<llvm::BitCastOperator>(user) ||
                 llvm::isa<llvm::AddrSpaceCastOperator>(user) || llvm::isa<llvm::PHINode>(user) ||
                 llvm::isa<llvm::SelectInst>(user)) {
        pending.push_back(user);
      }
    }
  }
  return false;
}

}  // namespace plexus::compiler_shared
