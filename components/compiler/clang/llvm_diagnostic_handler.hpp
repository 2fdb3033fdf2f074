// LlvmDiagnosticHandler: routes the diagnostics an LLVMContext reports (linker warnings,
// code generation errors, inline-asm problems) into a compilation's DiagnosticLog instead
// of stderr. Remarks are dropped.
//
// Ownership/thread-safety: owned by the one LLVMContext of one compilation; the log must
// outlive that context's use.
#pragma once

#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/raw_ostream.h>

#include "diagnostic_log.hpp"

namespace plexus::clang_compiler {

class LlvmDiagnosticHandler final : public llvm::DiagnosticHandler {
 public:
  explicit LlvmDiagnosticHandler(DiagnosticLog& log) : log_(log) {}

  bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
    if (info.getSeverity() == llvm::DS_Remark) return true;
    std::string text;
    llvm::raw_string_ostream stream(text);
    llvm::DiagnosticPrinterRawOStream printer(stream);
    info.print(printer);
    stream.flush();
    const DiagnosticSeverity severity =
        info.getSeverity() == llvm::DS_Error     ? DiagnosticSeverity::error
        : info.getSeverity() == llvm::DS_Warning ? DiagnosticSeverity::warning
                                                 : DiagnosticSeverity::note;
    log_.add({{}, 0, 0, severity, text});
    return true;
  }

 private:
  DiagnosticLog& log_;
};

}  // namespace plexus::clang_compiler
