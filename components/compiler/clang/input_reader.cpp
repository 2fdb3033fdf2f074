#include "input_reader.hpp"

#include <LLVMSPIRVLib.h>
#ifdef PLEXUS_HAVE_SPIRV_TOOLS
#include <spirv-tools/libspirv.h>
#endif
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <vector>

#include "plexus/isolated_call.hpp"
#include "untrusted_bitcode.hpp"

namespace plexus::clang_compiler {

namespace {

std::unique_ptr<llvm::Module> read_bitcode(const std::string& bytes, llvm::LLVMContext& context,
                                           DiagnosticLog& log) {
  std::string problem;
  std::unique_ptr<llvm::Module> module =
      compiler_shared::parse_untrusted_bitcode(bytes, context, problem);
  if (!module) log.error("the input is " + problem);
  return module;
}

std::unique_ptr<llvm::Module> read_ir_text(const std::string& text, const std::string& name,
                                           llvm::LLVMContext& context, DiagnosticLog& log) {
  llvm::SMDiagnostic problem;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssembly(llvm::MemoryBufferRef(text, name), problem, context);
  if (!module) {
    log.add({name, static_cast<std::uint32_t>(std::max(problem.getLineNo(), 0)),
             static_cast<std::uint32_t>(std::max(problem.getColumnNo() + 1, 0)),
             DiagnosticSeverity::error, problem.getMessage().str()},
            problem.getLineContents().str());
  }
  return module;
}

// The SPIR-V validator's verdict (the translator asserts on malformed modules).
bool validate_spirv(const std::string& bytes, DiagnosticLog& log) {
#ifdef PLEXUS_HAVE_SPIRV_TOOLS
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_5);
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result = spvValidate(context, &binary, &diagnostic);
  if (result != SPV_SUCCESS) {
    std::string message = "the input is not valid SPIR-V";
    if (diagnostic) {
      message += ": ";
      message += diagnostic->error;
      if (!diagnostic->isTextSource)
        message += " (word " + std::to_string(diagnostic->position.index) + ")";
    }
    log.error(message);
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return result == SPV_SUCCESS;
#else
  (void)bytes;
  (void)log;
  return true;
#endif
}

// In a child process (run_isolated): SPIRV-LLVM-Translator 15 asserts or crashes on some
// SPIR-V that spvValidate accepts. The child sends the module back as bitcode.
std::unique_ptr<llvm::Module> read_spirv(const std::string& bytes, llvm::LLVMContext& context,
                                         DiagnosticLog& log) {
  constexpr std::uint32_t magic = 0x07230203, swapped = 0x03022307;
  std::uint32_t first = 0;
  if (bytes.size() >= sizeof first) std::memcpy(&first, bytes.data(), sizeof first);
  if (bytes.size() < 20 || bytes.size() % 4 != 0 || (first != magic && first != swapped)) {
    log.error(
        "the input is not a SPIR-V module (no SPIR-V header: magic number 0x07230203 "
        "and 5 words expected)");
    return nullptr;
  }
  const IsolatedResult translated = run_isolated([&](std::string& output, std::string& message) {
    DiagnosticLog scratch;
    if (!validate_spirv(bytes, scratch)) {
      message = scratch.diagnostics().front().message;
      return false;
    }
    std::istringstream stream(bytes);
    llvm::Module* module = nullptr;
    std::string why;
    SPIRV::TranslatorOpts options;
    if (!llvm::readSpirv(context, options, stream, module, why) || module == nullptr) {
      message = "the SPIR-V module could not be translated to LLVM IR: " + why;
      return false;
    }
    std::string problems;
    llvm::raw_string_ostream problem_stream(problems);
    if (llvm::verifyModule(*module, &problem_stream)) {
      message = "the input module is not valid LLVM IR: " + problem_stream.str();
      return false;
    }
    llvm::raw_string_ostream bitcode(output);
    llvm::WriteBitcodeToFile(*module, bitcode);
    bitcode.flush();
    return true;
  });
  if (!translated.succeeded) {
    log.error(translated.failure.starts_with("the ")
                  ? translated.failure
                  : "the SPIR-V module could not be translated to LLVM IR: the SPIR-V translator "
                    "failed on it (" + translated.failure + ")");
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(translated.output, "input.spv.bc"), context);
  if (!module) {
    log.error("internal: the SPIR-V translator's module does not parse: " +
              llvm::toString(module.takeError()));
    return nullptr;
  }
  return std::move(*module);
}

}  // namespace

std::unique_ptr<llvm::Module> InputReader::read(const CompileRequest& request,
                                                llvm::LLVMContext& context, DiagnosticLog& log) {
  std::unique_ptr<llvm::Module> module;
  switch (request.language) {
    case SourceLanguage::llvm_bitcode:
      module = read_bitcode(request.source, context, log);
      break;
    case SourceLanguage::llvm_ir_text:
      module = read_ir_text(request.source,
                            request.source_name.empty() ? "input.ll" : request.source_name, context,
                            log);
      break;
    case SourceLanguage::spirv:
      module = read_spirv(request.source, context, log);
      break;
    case SourceLanguage::opencl_c:
    case SourceLanguage::cpp_for_opencl:
    case SourceLanguage::sycl:
      log.error("internal: InputReader given a source language");
      return nullptr;
  }
  if (!module) return nullptr;
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(*module, &stream)) {
    log.error("the input module is not valid LLVM IR: " + stream.str());
    return nullptr;
  }
  return module;
}

}  // namespace plexus::clang_compiler
