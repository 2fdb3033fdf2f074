#include "sycl_work_group_static.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include <string>
#include <vector>

#include "address_spaces.hpp"

namespace plexus::compiler_shared {

namespace {

constexpr const char* class_prefix = "class.sycl::ext::oneapi::experimental::work_group_static";
constexpr const char* identity_name = "__plexus_sycl_work_group_static";

bool is_work_group_static(const llvm::Type* type) {
  const auto* structure = llvm::dyn_cast<llvm::StructType>(type);
  return structure && structure->hasName() && structure->getName().startswith(class_prefix);
}

// Rewrites the constant-expression users of `old` (a pointer into the global address
// space) onto `replacement` (the same place in local memory); false when a user is not a
// constant expression this knows.
bool retarget(llvm::Constant* old, llvm::Constant* replacement) {
  for (llvm::User* user : llvm::make_early_inc_range(old->users())) {
    auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(user);
    if (!expression) return false;
    switch (expression->getOpcode()) {
      case llvm::Instruction::AddrSpaceCast:  // to the generic address space
        expression->replaceAllUsesWith(
            llvm::ConstantExpr::getPointerBitCastOrAddrSpaceCast(replacement, expression->getType()));
        break;
      case llvm::Instruction::BitCast: {  // typed pointers
        auto* type = llvm::PointerType::getWithSamePointeeType(
            llvm::cast<llvm::PointerType>(expression->getType()), local_address_space);
        if (!retarget(expression, llvm::ConstantExpr::getBitCast(replacement, type))) return false;
        break;
      }
      case llvm::Instruction::GetElementPtr: {
        auto* gep = llvm::cast<llvm::GEPOperator>(expression);
        std::vector<llvm::Constant*> indices;
        for (llvm::Use& index : llvm::drop_begin(expression->operands()))
          indices.push_back(llvm::cast<llvm::Constant>(index.get()));
        if (!retarget(expression, llvm::ConstantExpr::getGetElementPtr(
                                      gep->getSourceElementType(), replacement, indices,
                                      gep->isInBounds())))
          return false;
        break;
      }
      default:
        return false;
    }
    if (expression->use_empty()) expression->destroyConstant();
  }
  return true;
}

}  // namespace

bool move_work_group_statics(llvm::Module& module, DiagnosticLog& log) {
  bool ok = true;
  std::vector<llvm::GlobalVariable*> moving;
  for (llvm::GlobalVariable& global : module.globals())
    if (global.getAddressSpace() != local_address_space &&
        is_work_group_static(global.getValueType()))
      moving.push_back(&global);
  for (llvm::GlobalVariable* old : moving) {
    auto* local = new llvm::GlobalVariable(
        module, old->getValueType(), false, llvm::GlobalValue::InternalLinkage,
        llvm::UndefValue::get(old->getValueType()), "", nullptr,
        llvm::GlobalValue::NotThreadLocal, local_address_space);
    local->takeName(old);
    local->setAlignment(old->getAlign());
    old->removeDeadConstantUsers();
    if (!retarget(old, local)) {
      log.error("internal: the work_group_static variable '" + local->getName().str() +
                "' is used in a way that cannot be moved into local memory");
      ok = false;
      continue;
    }
    old->eraseFromParent();
  }
  if (llvm::Function* identity = module.getFunction(identity_name)) {
    for (llvm::User* user : llvm::make_early_inc_range(identity->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call) continue;
      llvm::Value* address = call->getArgOperand(0);
      const llvm::Value* object = llvm::getUnderlyingObject(address);
      const auto* global = llvm::dyn_cast<llvm::GlobalVariable>(object);
      if (llvm::isa<llvm::AllocaInst>(object) ||
          (global && global->getAddressSpace() != local_address_space)) {
        log.error("a sycl::ext::oneapi::experimental::work_group_static in '" +
                  llvm::demangle(call->getFunction()->getName().str()) +
                  "' is not a variable of its own at namespace scope or static in a function "
                  "(a local variable, or a member of another object): it would not be in "
                  "work-group local memory");
        ok = false;
      }
      call->replaceAllUsesWith(
          llvm::CastInst::CreatePointerBitCastOrAddrSpaceCast(address, call->getType(), "", call));
      call->eraseFromParent();
    }
    if (identity->use_empty()) identity->eraseFromParent();
  }
  return ok;
}

}  // namespace plexus::compiler_shared
