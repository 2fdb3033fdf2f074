// InputModules: the kernels to fuse, parsed from bitcode into one LLVM context and linked
// into one module. Kernel k becomes the internal, always-inline function
// `input_function_name(k)` (its work-item calls remapped for its nd-range, its OpenCL
// kernel metadata kept for the fused entry to read); every other definition of its module
// becomes internal (so device-library copies and helpers of several inputs do not clash),
// and the other kernels of its module are dropped.
// Not thread-safe for one context (LLVM IR); separate contexts may be used concurrently.
#pragma once

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "fusion_plan.hpp"

namespace plexus::fusion_llvm {

std::string input_function_name(std::size_t kernel);

// The bitcode of each kernel (spir, NVPTX or host bitcode, all of one kind), in request
// order. NVPTX inputs lose their !nvvm.annotations (the fused entry gets its own).
// Returns the reason instead when fusion cannot be done: an NVPTX input that needs
// work-item remapping reads the special registers directly (llvm.nvvm.read.ptx.sreg.*,
// libclc already linked), which remapping cannot rewrite.
// Throws plexus::error(invalid_argument) when a bitcode does not parse or does not define
// its kernel, or when the inputs are for different targets.
std::variant<std::unique_ptr<llvm::Module>, std::string> link_inputs(
    llvm::LLVMContext& context, const std::vector<const std::vector<std::byte>*>& bitcode,
    const FusionRequest& request, const FusionPlan& plan);

}  // namespace plexus::fusion_llvm
