// FrontendCommand: the clang-15 -cc1 command line for one source compilation: the
// arguments compiler/clang's in-process frontend uses (compiler_shared::FrontendOptions),
// plus the output, the include directories and the input file.
//
// Thread-safety: stateless (pure functions).
#pragma once

#include <cstdint>
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
  std::string output;                     // the bitcode (or preprocessed text) to write
  std::vector<std::string> include_dirs;  // -I, in order (the temporary directory first)
};

class FrontendCommand {
 public:
  // The arguments after the clang-15 path, or nullopt (an error in `log`) when the user's
  // options are refused. `preprocess`: -E (line markers kept) instead of bitcode. clang
  // stops after `max_errors` errors.
  static std::optional<std::vector<std::string>> build(const CompileRequest& request,
                                                       const compiler_shared::TargetSpec& target,
                                                       const FrontendPaths& paths,
                                                       std::int64_t max_errors,
                                                       compiler_shared::DiagnosticLog& log,
                                                       bool preprocess = false);
};

}  // namespace plexus::process_compiler
