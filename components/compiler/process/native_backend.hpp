// NativeBackend: bitcode to PTX or an AMDGCN object with child processes: llvm-link-15
// --only-needed with the target's libclc library, opt-15 (internalize all but the kernels,
// then the O3 pipeline; O0 for -O0 / -cl-opt-disable), a check in process that nothing is
// left unresolved, and llc-15 with the TargetSpec's CPU and features; for AMDGCN, llc's
// relocatable object is then linked into a loadable HSA code object by `ld.lld -shared`.
//
// Thread-safety: stateless; works in the caller's temporary directory.
#pragma once

#include <string>
#include <vector>

#include "clang_output_parser.hpp"
#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"
#include "temp_directory.hpp"

namespace plexus::process_compiler {

struct NativeTools {
  std::string linker, optimizer, code_generator;  // llvm-link-15, opt-15, llc-15
  std::string object_linker;                      // ld.lld (AMDGCN only)
};

class NativeBackend {
 public:
  // Reads `input` (in `dir`) and writes `output` (in `dir`); false (errors in `log`) when
  // a step fails.
  static bool emit(const NativeTools& tools, const compiler_shared::TargetSpec& spec,
                   const CompileRequest& request, const std::vector<KernelInfo>& kernels,
                   const std::string& libclc_dir, const TempDirectory& dir,
                   const std::string& input, const std::string& output, const PathNames& names,
                   compiler_shared::DiagnosticLog& log);
};

}  // namespace plexus::process_compiler
