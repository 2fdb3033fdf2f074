// Frontend: OpenCL C / C++ for OpenCL source -> llvm::Module, in process, with Clang's
// CompilerInstance over an in-memory file system (the source and the virtual include
// files) overlaid on the real one (for the clang resource headers). No temporary files,
// no child processes. Every diagnostic, those about options included, goes to the log.
//
// Ownership/thread-safety: immutable after construction; compile() may be called from
// many threads at once, each with its own LLVMContext.
#pragma once

#include <memory>
#include <string>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

class Frontend {
 public:
  explicit Frontend(std::string resource_dir);

  // The module, or nullptr when the source did not compile (the log says why).
  std::unique_ptr<llvm::Module> compile(const CompileRequest& request, const TargetSpec& target,
                                        llvm::LLVMContext& context, DiagnosticLog& log) const;

  // The -O level the user's options ask for (0..3; 2 when none is given).
  static unsigned optimization_level(const CompileRequest& request);

  // Where the source and the virtual include files live in the in-memory file system.
  static constexpr const char* virtual_dir = "/plexus-virtual";

 private:
  std::string resource_dir_;
};

}  // namespace plexus::clang_compiler
