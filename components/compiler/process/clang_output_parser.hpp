// ClangOutputParser: clang-15's stderr ("FILE:LINE:COL: error: MESSAGE", the source line,
// the caret) turned into plexus::Diagnostic records in a DiagnosticLog, with the temporary
// directory's paths replaced by the names the user gave (the source's name, and the
// virtual include files' names), so diagnostics read as they do from compiler/clang.
//
// Thread-safety: stateless.
#pragma once

#include <string>
#include <string_view>

#include "diagnostic_log.hpp"

namespace plexus::process_compiler {

struct PathNames {
  std::string temp_dir;   // the temporary directory (no trailing '/')
  std::string main_file;  // the source's path inside it
  std::string shown;      // the name the user gave the source
  // `text` with every temporary path replaced by the user's name for it.
  std::string replace(std::string text) const;
  std::string name_of(const std::string& path) const;
};

class ClangOutputParser {
 public:
  // Adds every diagnostic in `output` to `log`. Lines that are not diagnostics (source
  // lines, carets, "N errors generated.", include stacks) are not recorded on their own.
  // clang's fatal error at its error limit becomes `at_error_limit` when that is given
  // (FrontendOptions::too_many_errors: the option that sets the limit).
  static void parse(std::string_view output, const PathNames& names,
                    compiler_shared::DiagnosticLog& log, const std::string& at_error_limit = {});
};

}  // namespace plexus::process_compiler
