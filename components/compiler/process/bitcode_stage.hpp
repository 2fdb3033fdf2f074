// BitcodeStage: the in-process part of compiler/process. It reads the bitcode a tool wrote
// (or the user's bitcode), checks it, keeps only CompileRequest::kernel_name (through the
// shared KernelSelector), reads the kernels' properties (the shared KernelInspector), and
// lowers work_group_barrier for the libclc targets (as compiler/clang does), and writes the
// bitcode back when it changed. LLVM only inspects and selects here: compiling,
// linking, optimizing and code generation are done by the child processes.
//
// Ownership/thread-safety: stateless; each call has its own LLVMContext.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"

namespace plexus::process_compiler {

struct StagedBitcode {
  std::string bitcode;  // the module to hand to the next tool (or return)
  std::vector<KernelInfo> kernels;
};

class BitcodeStage {
 public:
  // nullopt (errors in `log`) when the bitcode is not valid, is for another target, or
  // lacks the requested kernel. `from_source`: the frontend wrote it (no triple check).
  // Unless request.emit_ir: `bounds_checks` instruments the kernels
  // (compiler_shared/bounds_checks), then `cancel_points` makes them cancellable on SPIR
  // targets (compiler_shared/cancel_points).
  static std::optional<StagedBitcode> prepare(const std::string& bitcode,
                                              const CompileRequest& request,
                                              const compiler_shared::TargetSpec& spec,
                                              bool from_source, bool bounds_checks,
                                              bool cancel_points,
                                              compiler_shared::DiagnosticLog& log);

  // Functions the linked module calls that nothing defines (a PTX or AMDGCN module with
  // them does not load), demangled and comma-separated; empty when there are none.
  static std::string unresolved_functions(const std::string& bitcode, BinaryFormat format,
                                          compiler_shared::DiagnosticLog& log);
};

}  // namespace plexus::process_compiler
