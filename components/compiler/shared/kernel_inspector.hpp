// KernelInspector: the KernelInfo of every kernel of a module, read from the OpenCL kernel
// metadata Clang (and the SPIR-V reader) attach: argument kinds from kernel_arg_addr_space
// and kernel_arg_type, sizes from the module's DataLayout, reqd_work_group_size, and
// whether the kernel (or a function it calls) calls a barrier or touches local memory.
// A last parameter named kernel_cancel::parameter_name (a cancellable kernel Plexus made,
// cancel_points.hpp) is not listed: the kernel is KernelInfo::cancellable.
// Run it on the frontend's module, before device libraries are linked.
//
// Thread-safety: stateless; only reads the module.
#pragma once

#include <vector>

#include "plexus/kernel_info.hpp"

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

class KernelInspector {
 public:
  static std::vector<KernelInfo> inspect(const llvm::Module& module);
  static bool is_kernel(const llvm::Function& function);
};

}  // namespace plexus::compiler_shared

// The clang component names these unqualified inside its own namespace.
namespace plexus::clang_compiler {
using compiler_shared::KernelInspector;
}  // namespace plexus::clang_compiler
