#include "diagnostic_log.hpp"

namespace plexus::compiler_shared {

namespace {

std::string_view severity_name(DiagnosticSeverity severity) {
  switch (severity) {
    case DiagnosticSeverity::note:
      return "note";
    case DiagnosticSeverity::warning:
      return "warning";
    case DiagnosticSeverity::error:
      return "error";
  }
  return "error";
}

}  // namespace

void DiagnosticLog::add(Diagnostic diagnostic, std::string_view source_line) {
  // Notes inside Plexus's SYCL headers (candidates, instantiation steps) are not the user's
  // code: the error and the notes at the user's lines say what went wrong.
  if (diagnostic.severity == DiagnosticSeverity::note &&
      diagnostic.file.starts_with(sycl_header_prefix))
    return;
  if (diagnostic.severity == DiagnosticSeverity::error) ++errors_;
  if (!diagnostic.file.empty()) {
    text_ += diagnostic.file;
    if (diagnostic.line > 0) {
      text_ += ':' + std::to_string(diagnostic.line);
      if (diagnostic.column > 0) text_ += ':' + std::to_string(diagnostic.column);
    }
    text_ += ": ";
  }
  text_ += severity_name(diagnostic.severity);
  text_ += ": ";
  text_ += diagnostic.message;
  text_ += '\n';
  if (!source_line.empty() && diagnostic.column > 0) {
    text_ += source_line;
    text_ += '\n';
    // The caret under the column; tabs kept so it lines up with the source line.
    for (std::size_t i = 0; i + 1 < diagnostic.column && i < source_line.size(); ++i)
      text_ += source_line[i] == '\t' ? '\t' : ' ';
    text_ += "^\n";
  }
  diagnostics_.push_back(std::move(diagnostic));
}

}  // namespace plexus::compiler_shared
