// DiagnosticLog: the diagnostics of one compilation, as structured records and as the
// text a user reads ("kernel.cl:3:5: error: ...", the source line and a caret).
//
// Ownership/thread-safety: one per compile() call, used by one thread; no LLVM types.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "plexus/diagnostic.hpp"

namespace plexus::compiler_shared {

class DiagnosticLog {
 public:
  // Files under this prefix are Plexus's SYCL headers (SyclSource::header_dir): notes
  // there are dropped, so SYCL diagnostics point at the user's source.
  static constexpr std::string_view sycl_header_prefix = "__plexus_sycl/";

  // `source_line` is the text of the line the diagnostic points at (empty: none).
  void add(Diagnostic diagnostic, std::string_view source_line = {});
  // A diagnostic without a location (options, linking, code generation).
  void error(std::string message) {
    add({{}, 0, 0, DiagnosticSeverity::error, std::move(message)});
  }
  void warning(std::string message) {
    add({{}, 0, 0, DiagnosticSeverity::warning, std::move(message)});
  }

  bool has_errors() const { return errors_ > 0; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::string& text() const { return text_; }
  std::vector<Diagnostic> take_diagnostics() { return std::move(diagnostics_); }
  std::string take_text() { return std::move(text_); }

 private:
  std::vector<Diagnostic> diagnostics_;
  std::string text_;
  std::size_t errors_ = 0;
};

}  // namespace plexus::compiler_shared

// The clang component names these unqualified inside its own namespace.
namespace plexus::clang_compiler {
using compiler_shared::DiagnosticLog;
}  // namespace plexus::clang_compiler
