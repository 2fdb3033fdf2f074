// Target conventions the fusion passes follow for the module they work on: the generic
// address space InferAddressSpaces folds from (4 on spir and the host's fake map, 0 on
// NVPTX), how NVPTX marks kernels (!nvvm.annotations {function, !"kernel", i32 1}; LLVM's
// NVPTX back end emits `.entry` only for those), and whether an NVPTX module reads the
// work-item special registers directly (llvm.nvvm.read.ptx.sreg.*: IR with libclc already
// linked), which work-item remapping cannot rewrite.
// Pure functions of one module; not thread-safe for one module (LLVM IR).
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <string>

namespace plexus::fusion_llvm {

bool is_nvptx(const llvm::Module& module);

// The address space of OpenCL's generic pointers in `module`.
unsigned generic_address_space(const llvm::Module& module);

// Removes !nvvm.annotations (kernel marks, reqntid): the inputs stop being NVPTX kernels.
void drop_nvptx_annotations(llvm::Module& module);

// Whether !nvvm.annotations marks `function` as a kernel.
bool annotated_nvptx_kernel(const llvm::Function& function);

// Marks `kernel` as an NVPTX kernel (nothing on other targets).
void annotate_nvptx_kernel(llvm::Function& kernel);

// The first llvm.nvvm.read.ptx.sreg.* intrinsic `module` calls, if any.
std::optional<std::string> work_item_register_read(const llvm::Module& module);

}  // namespace plexus::fusion_llvm
