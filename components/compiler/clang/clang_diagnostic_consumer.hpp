// ClangDiagnosticConsumer: receives every diagnostic of one Clang frontend run (options
// included) and records it in a DiagnosticLog with file, line, column and severity. File
// names under the virtual directory are shown relative to it ("kernel.cl", "inc/a.h"), the
// main file as the request names it. The fatal error at the error limit names the option
// that sets it (max_errors of [compiler.clang], FrontendOptions::too_many_errors).
//
// Ownership/thread-safety: one per frontend run, used by that run's thread; the log must
// outlive it.
#pragma once

#include <clang/Basic/Diagnostic.h>

#include <cstdint>
#include <string>

#include "diagnostic_log.hpp"

namespace plexus::clang_compiler {

class ClangDiagnosticConsumer final : public clang::DiagnosticConsumer {
 public:
  // `max_errors`: the frontend's error limit (FrontendOptions::arguments).
  ClangDiagnosticConsumer(DiagnosticLog& log, std::string virtual_dir, std::string main_file,
                          std::string main_file_shown, std::int64_t max_errors);

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override;

 private:
  DiagnosticLog& log_;
  std::string virtual_dir_;  // with a trailing '/'
  std::string main_file_;
  std::string main_file_shown_;
  std::int64_t max_errors_;
};

}  // namespace plexus::clang_compiler
