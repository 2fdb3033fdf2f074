#include "kernel_inspector.hpp"

#include "address_spaces.hpp"
#include "argument_writes.hpp"
#include "plexus/kernel_cancel.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <string>

namespace plexus::compiler_shared {

namespace {

// OpenCL's address-space numbers in kernel_arg_addr_space (the same on every target).
constexpr unsigned opencl_global = 1, opencl_constant = 2, opencl_local = 3;

std::optional<std::uint64_t> metadata_integer(const llvm::MDNode* node, unsigned index) {
  if (!node || index >= node->getNumOperands()) return std::nullopt;
  if (auto* value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(index)))
    return value->getZExtValue();
  return std::nullopt;
}

std::string metadata_string(const llvm::MDNode* node, unsigned index) {
  if (!node || index >= node->getNumOperands()) return {};
  if (auto* text = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(index).get()))
    return text->getString().str();
  return {};
}

bool is_barrier(const llvm::Function& callee) {
  const llvm::StringRef name = callee.getName();
  return name.contains_insensitive("barrier");  // barrier, work_group_barrier, spirv, nvvm
}

// Whether `value` is, or is a constant expression over, a global in local memory.
bool refers_to_local(const llvm::Value* value, llvm::SmallPtrSetImpl<const llvm::Value*>& seen) {
  if (!seen.insert(value).second) return false;
  if (auto* global = llvm::dyn_cast<llvm::GlobalVariable>(value))
    return global->getAddressSpace() == local_address_space;
  if (auto* expression = llvm::dyn_cast<llvm::ConstantExpr>(value)) {
    for (const llvm::Value* operand : expression->operands())
      if (refers_to_local(operand, seen)) return true;
  }
  return false;
}

// Barrier calls and local-memory globals in `kernel` and every function it reaches.
void scan_calls(const llvm::Function& kernel, KernelInfo& info) {
  llvm::SmallPtrSet<const llvm::Function*, 16> visited;
  llvm::SmallVector<const llvm::Function*, 16> pending{&kernel};
  llvm::SmallPtrSet<const llvm::Value*, 32> seen_values;
  while (!pending.empty()) {
    const llvm::Function* function = pending.pop_back_val();
    if (!visited.insert(function).second) continue;
    for (const llvm::Instruction& instruction : llvm::instructions(*function)) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
        if (const llvm::Function* callee = call->getCalledFunction()) {
          if (is_barrier(*callee)) info.uses_barriers = true;
          if (!callee->isDeclaration()) pending.push_back(callee);
        }
      }
      if (!info.uses_local_memory) {
        for (const llvm::Value* operand : instruction.operands())
          if (llvm::isa<llvm::Constant>(operand) && refers_to_local(operand, seen_values))
            info.uses_local_memory = true;
      }
    }
  }
}

KernelArgKind kind_of(const llvm::Argument& argument, const llvm::MDNode* spaces,
                      const llvm::MDNode* types) {
  const unsigned index = argument.getArgNo();
  const std::string type = metadata_string(types, index);
  if (type == "sampler_t") return KernelArgKind::sampler;
  if (type.find("image") != std::string::npos && type.ends_with("_t")) return KernelArgKind::image;
  std::optional<std::uint64_t> space = metadata_integer(spaces, index);
  if (!space && argument.getType()->isPointerTy() && !argument.hasByValAttr())
    space = argument.getType()->getPointerAddressSpace();
  switch (space.value_or(0)) {
    case opencl_global:
      return KernelArgKind::global_pointer;
    case opencl_constant:
      return KernelArgKind::constant_pointer;
    case opencl_local:
      return KernelArgKind::local_pointer;
    default:
      return KernelArgKind::scalar;
  }
}

// NVPTX marks kernels in !nvvm.annotations as {function, !"kernel", i32 1}.
bool annotated_as_nvptx_kernel(const llvm::Function& function) {
  const llvm::NamedMDNode* annotations = function.getParent()->getNamedMetadata("nvvm.annotations");
  if (!annotations) return false;
  for (const llvm::MDNode* node : annotations->operands()) {
    if (node->getNumOperands() < 3 || metadata_string(node, 1) != "kernel") continue;
    if (llvm::mdconst::dyn_extract_or_null<llvm::Function>(node->getOperand(0)) == &function &&
        metadata_integer(node, 2).value_or(0) == 1)
      return true;
  }
  return false;
}

}  // namespace

bool KernelInspector::is_kernel(const llvm::Function& function) {
  if (function.isDeclaration()) return false;
  switch (function.getCallingConv()) {
    case llvm::CallingConv::SPIR_KERNEL:
    case llvm::CallingConv::PTX_Kernel:
    case llvm::CallingConv::AMDGPU_KERNEL:
      return true;
    default:
      return function.getMetadata("kernel_arg_addr_space") != nullptr ||
             annotated_as_nvptx_kernel(function);
  }
}

std::vector<KernelInfo> KernelInspector::inspect(const llvm::Module& module) {
  const llvm::DataLayout& layout = module.getDataLayout();
  std::vector<KernelInfo> kernels;
  for (const llvm::Function& function : module) {
    if (!is_kernel(function)) continue;
    KernelInfo info;
    info.name = function.getName().str();
    const llvm::MDNode* spaces = function.getMetadata("kernel_arg_addr_space");
    const llvm::MDNode* types = function.getMetadata("kernel_arg_type");
    const llvm::MDNode* names = function.getMetadata("kernel_arg_name");
    for (const llvm::Argument& argument : function.args()) {
      KernelArgInfo arg;
      arg.name = metadata_string(names, argument.getArgNo());
      if (arg.name.empty()) arg.name = argument.getName().str();
      // The cancel cell of a cancellable kernel (compiled by Plexus before): the backend
      // passes it, it is not an argument.
      if (argument.getArgNo() + 1 == function.arg_size() &&
          arg.name == kernel_cancel::parameter_name) {
        info.cancellable = true;
        break;
      }
      arg.kind = kind_of(argument, spaces, types);
      llvm::Type* type =
          argument.hasByValAttr() ? argument.getParamByValType() : argument.getType();
      arg.size = static_cast<std::size_t>(layout.getTypeAllocSize(type).getFixedSize());
      if (arg.kind == KernelArgKind::local_pointer) info.uses_local_memory = true;
      if (arg.kind == KernelArgKind::global_pointer) arg.written = stores_through(argument);
      info.args.push_back(std::move(arg));
    }
    const llvm::MDNode* required = function.getMetadata("reqd_work_group_size");
    for (unsigned i = 0; i < 3; ++i)
      info.required_work_group_size[i] =
          static_cast<std::size_t>(metadata_integer(required, i).value_or(0));
    scan_calls(function, info);
    kernels.push_back(std::move(info));
  }
  return kernels;
}

}  // namespace plexus::compiler_shared
