#include "clang_diagnostic_consumer.hpp"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>

#include "frontend_options.hpp"

namespace plexus::clang_compiler {

namespace {

// The text of the line `location` is on, without its line break.
std::string_view line_text(const clang::SourceManager& sources, clang::SourceLocation location) {
  bool invalid = false;
  const std::pair<clang::FileID, unsigned> decomposed = sources.getDecomposedLoc(location);
  const llvm::StringRef buffer = sources.getBufferData(decomposed.first, &invalid);
  if (invalid || decomposed.second > buffer.size()) return {};
  // rfind looks at the characters before the offset only.
  std::size_t begin = buffer.rfind('\n', decomposed.second);
  begin = begin == llvm::StringRef::npos ? 0 : begin + 1;
  std::size_t end = buffer.find_first_of("\r\n", decomposed.second);
  if (end == llvm::StringRef::npos) end = buffer.size();
  return std::string_view(buffer.data() + begin, end - begin);
}

}  // namespace

ClangDiagnosticConsumer::ClangDiagnosticConsumer(DiagnosticLog& log, std::string virtual_dir,
                                                 std::string main_file, std::string main_file_shown,
                                                 std::int64_t max_errors)
    : log_(log),
      virtual_dir_(std::move(virtual_dir)),
      main_file_(std::move(main_file)),
      main_file_shown_(std::move(main_file_shown)),
      max_errors_(max_errors) {
  if (!virtual_dir_.empty() && virtual_dir_.back() != '/') virtual_dir_ += '/';
}

void ClangDiagnosticConsumer::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                               const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // counts errors and warnings
  Diagnostic diagnostic;
  switch (level) {
    case clang::DiagnosticsEngine::Ignored:
      return;
    case clang::DiagnosticsEngine::Note:
    case clang::DiagnosticsEngine::Remark:
      diagnostic.severity = DiagnosticSeverity::note;
      break;
    case clang::DiagnosticsEngine::Warning:
      diagnostic.severity = DiagnosticSeverity::warning;
      break;
    case clang::DiagnosticsEngine::Error:
    case clang::DiagnosticsEngine::Fatal:
      diagnostic.severity = DiagnosticSeverity::error;
      break;
  }
  llvm::SmallString<256> message;
  info.FormatDiagnostic(message);
  diagnostic.message = info.getID() == clang::diag::fatal_too_many_errors
                           ? compiler_shared::FrontendOptions::too_many_errors("compiler.clang",
                                                                               max_errors_)
                           : message.str().str();

  std::string_view source_line;
  if (info.getLocation().isValid() && info.hasSourceManager()) {
    const clang::SourceManager& sources = info.getSourceManager();
    const clang::SourceLocation location = sources.getFileLoc(info.getLocation());
    const clang::PresumedLoc presumed = sources.getPresumedLoc(location);
    if (presumed.isValid()) {
      std::string file = presumed.getFilename();
      if (file == main_file_) {
        file = main_file_shown_;
      } else if (file.starts_with(virtual_dir_)) {
        file.erase(0, virtual_dir_.size());
      }
      diagnostic.file = std::move(file);
      diagnostic.line = presumed.getLine();
      diagnostic.column = presumed.getColumn();
      source_line = line_text(sources, location);
    }
  }
  log_.add(std::move(diagnostic), source_line);
}

}  // namespace plexus::clang_compiler
