// InputReader: LLVM bitcode, LLVM IR text and SPIR-V inputs -> llvm::Module (SPIR-V with
// the SPIRV-LLVM-Translator's readSpirv). Invalid input gives an error in the log, never
// a crash or the end of the process: SPIR-V is checked for its header, then validated and
// translated in a child process (run_isolated: the translator asserts or crashes on some
// SPIR-V that the validator accepts), bitcode is parsed in a child first
// (parse_untrusted_bitcode), and every module read is verified.
//
// Thread-safety: stateless; read() may be called from many threads, each with its own
// LLVMContext.
#pragma once

#include <memory>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

class InputReader {
 public:
  // nullptr (with errors in the log) when the input is not what its language says.
  static std::unique_ptr<llvm::Module> read(const CompileRequest& request,
                                            llvm::LLVMContext& context, DiagnosticLog& log);
};

}  // namespace plexus::clang_compiler
