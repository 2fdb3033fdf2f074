// KernelSelector: CompileRequest::kernel_name: keeps one kernel and what it uses, removes
// the other kernels (and their NVPTX annotations) and whatever only they used.
//
// Thread-safety: stateless; works on one module of one compilation.
#pragma once

#include <string>

#include "diagnostic_log.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::compiler_shared {

class KernelSelector {
 public:
  // False, with an error listing the kernels the module defines, when `name` is not one.
  static bool keep_only(llvm::Module& module, const std::string& name, DiagnosticLog& log);
};

}  // namespace plexus::compiler_shared

// The clang component names these unqualified inside its own namespace.
namespace plexus::clang_compiler {
using compiler_shared::KernelSelector;
}  // namespace plexus::clang_compiler
