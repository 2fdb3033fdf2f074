// FrontendCommand: the clang-15 -cc1 command line for one source compilation, with the
// same triple, CPU, features, pointer mode, -O2 default, OpenCL header flags and option
// rules as compiler/clang's in-process frontend (so the two compile the same thing).
// User options are split like a shell would (quotes kept together); options that would
// take the target, the language or LLVM's command line away are refused, as in-process.
//
// Thread-safety: stateless (pure functions).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"

namespace plexus::process_compiler {

struct FrontendPaths {
  std::string resource_dir;               // clang's resource directory
  std::string main_file;                  // the source, inside the temporary directory
  std::string output;                     // the bitcode file to write
  std::vector<std::string> include_dirs;  // -I, in order (the temporary directory first)
};

class FrontendCommand {
 public:
  // The arguments after the clang-15 path, or nullopt (an error in `log`) when the user's
  // options are refused.
  static std::optional<std::vector<std::string>> build(const CompileRequest& request,
                                                       const compiler_shared::TargetSpec& target,
                                                       const FrontendPaths& paths,
                                                       compiler_shared::DiagnosticLog& log);

  // The user's options as tokens ("-DA=1 -DB" is two).
  static std::vector<std::string> user_tokens(const CompileRequest& request);

  // The -O level the user's options ask for (0..3; 2 when none is given).
  static unsigned optimization_level(const CompileRequest& request);
};

}  // namespace plexus::process_compiler
