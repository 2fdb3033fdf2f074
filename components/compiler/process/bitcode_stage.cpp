#include "sycl_source.hpp"
#include "bitcode_stage.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "barrier_lowering.hpp"
#include "bounds_checks.hpp"
#include "cancel_points.hpp"
#include "device_code_checks.hpp"
#include "kernel_inspector.hpp"
#include "kernel_selector.hpp"
#include "spirv_translator_input.hpp"
#include "untrusted_bitcode.hpp"

namespace plexus::process_compiler {

namespace {

std::unique_ptr<llvm::Module> parse(const std::string& bitcode, llvm::LLVMContext& context,
                                    compiler_shared::DiagnosticLog& log) {
  auto buffer = llvm::MemoryBuffer::getMemBuffer(bitcode, "input", false);
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
  if (!module) {
    log.error("the input is not valid LLVM bitcode: " + llvm::toString(module.takeError()));
    return nullptr;
  }
  return std::move(*module);
}

std::string write(const llvm::Module& module) {
  std::string bytes;
  llvm::raw_string_ostream stream(bytes);
  llvm::WriteBitcodeToFile(module, stream);
  stream.flush();
  return bytes;
}

}  // namespace

std::optional<StagedBitcode> BitcodeStage::prepare(const std::string& bitcode,
                                                   const CompileRequest& request,
                                                   const compiler_shared::TargetSpec& spec,
                                                   bool from_source, bool bounds_checks,
                                                   bool cancel_points,
                                                   compiler_shared::DiagnosticLog& log) {
  llvm::LLVMContext context;
  // The pointer mode of the next tool's input: typed for SPIR (the SPIR-V translator
  // wants them), opaque otherwise (libclc 15 is opaque-pointer bitcode).
  if (spec.typed_pointers && (from_source || request.language == SourceLanguage::spirv))
    context.setOpaquePointers(false);
  else if (!spec.typed_pointers)
    context.setOpaquePointers(true);
  // The user's bitcode is parsed in a child first (LLVM's reader crashes on some
  // malformed files); the tools' own output is parsed here directly.
  std::unique_ptr<llvm::Module> module;
  if (request.language == SourceLanguage::llvm_bitcode) {
    std::string problem;
    module = compiler_shared::parse_untrusted_bitcode(bitcode, context, problem);
    if (!module) log.error("the input is " + problem);
  } else {
    module = parse(bitcode, context, log);
  }
  if (!module) return std::nullopt;
  bool changed = false;
  if (from_source && request.language == SourceLanguage::sycl) {
    if (!compiler_shared::SyclSource::finish(*module, log)) return std::nullopt;
    changed = true;
  }
  if (!from_source) {
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (llvm::verifyModule(*module, &stream)) {
      log.error("the input module is not valid LLVM IR: " + stream.str());
      return std::nullopt;
    }
    if (!compiler_shared::triple_matches(spec, module->getTargetTriple())) {
      log.error("the input module is for '" + module->getTargetTriple() +
                "', which cannot be compiled to " + std::string(to_string(request.target)) +
                " (needs " + spec.triple + ")");
      return std::nullopt;
    }
    // Typed-pointer inputs are upgraded here: llvm-link cannot mix them with libclc.
    if (!spec.typed_pointers) changed = true;
    if (module->getTargetTriple().empty()) {
      module->setTargetTriple(spec.triple);
      changed = true;
    }
  }
  if (!request.kernel_name.empty()) {
    if (!compiler_shared::KernelSelector::keep_only(*module, request.kernel_name, log))
      return std::nullopt;
    changed = true;
  }
  StagedBitcode staged;
  staged.kernels = compiler_shared::KernelInspector::inspect(*module);
  if (bounds_checks && !request.emit_ir) {
    if (!compiler_shared::add_bounds_checks(*module, staged.kernels, log)) return std::nullopt;
    changed = true;
  }
  if (cancel_points && !request.emit_ir && compiler_shared::takes_cancel_points(spec.format)) {
    compiler_shared::add_cancel_points(*module, staged.kernels, log);
    changed = true;
  }
  // As compiler/clang does before linking libclc (which lacks work_group_barrier).
  if (spec.format == BinaryFormat::ptx || spec.format == BinaryFormat::amdgcn)
    changed = compiler_shared::BarrierLowering::lower_work_group_barrier(*module) || changed;
  // As compiler/clang does before translating (no freeze; dominators first).
  if (spec.format == BinaryFormat::spirv && !request.emit_ir)
    changed = compiler_shared::prepare_for_spirv_translator(*module) || changed;
  staged.bitcode = changed ? write(*module) : bitcode;
  return staged;
}

std::string BitcodeStage::unresolved_functions(const std::string& bitcode, BinaryFormat format,
                                               compiler_shared::DiagnosticLog& log) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(bitcode, context, log);
  return module ? compiler_shared::unresolved_functions(*module, format) : std::string();
}

}  // namespace plexus::process_compiler
