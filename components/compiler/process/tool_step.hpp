// ToolStep: one tool run as a step of a compilation: a failure becomes an error in the
// DiagnosticLog with the tool's own message, temporary paths replaced by the user's names.
//
// Thread-safety: stateless.
#pragma once

#include <string>
#include <vector>

#include "clang_output_parser.hpp"
#include "diagnostic_log.hpp"

namespace plexus::process_compiler {

class ToolStep {
 public:
  // False (an error in `log`) when the tool fails; `output` receives what it printed.
  static bool run(const std::string& tool, const std::vector<std::string>& arguments,
                  const PathNames& names, compiler_shared::DiagnosticLog& log,
                  std::string* output = nullptr);
  // "tool failed (exit status 1): message" for a failed run.
  static std::string failure(const std::string& tool, const std::string& status,
                             const std::string& output, const PathNames& names);
};

}  // namespace plexus::process_compiler
