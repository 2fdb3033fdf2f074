#include "frontend.hpp"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/PreprocessorOutputOptions.h>
#include <clang/Frontend/Utils.h>
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <string_view>
#include <vector>

#include "clang_diagnostic_consumer.hpp"

namespace plexus::clang_compiler {

namespace {

// The user's options as tokens: each element may hold several ("-DA=1 -DB"), with quotes.
// (TokenizeGNUCommandLine only splits a string; it parses no LLVM option.)
std::vector<std::string> user_tokens(const CompileRequest& request) {
  std::vector<std::string> tokens;
  for (const std::string& option : request.options) {
    llvm::BumpPtrAllocator allocator;
    llvm::StringSaver saver(allocator);
    llvm::SmallVector<const char*, 8> pieces;
    llvm::cl::TokenizeGNUCommandLine(option, saver, pieces);
    for (const char* piece : pieces) tokens.emplace_back(piece);
  }
  return tokens;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// Translates the user's (driver-style) options to frontend options; false (with an error
// in the log) for options that would take the target, the language or LLVM's global
// command line away from this compiler.
bool translate_options(const std::vector<std::string>& tokens, std::vector<std::string>& args,
                       bool& has_cl_std, bool& default_header, DiagnosticLog& log) {
  bool ok = true;
  for (const std::string& token : tokens) {
    if (starts_with(token, "-mllvm") || starts_with(token, "-Xclang")) {
      log.error("option '" + token +
                "' is not accepted: LLVM command-line options are process-wide and a plugin "
                "must not set them");
      ok = false;
    } else if (token == "-x" || starts_with(token, "-target") || starts_with(token, "--target") ||
               token == "-triple" || token == "-cc1" || starts_with(token, "-march") ||
               starts_with(token, "-mcpu")) {
      log.error("option '" + token +
                "' is not accepted: the target is chosen by CompileRequest::target and "
                "target_architecture, the language by CompileRequest::language");
      ok = false;
    } else if (token == "-g") {
      args.insert(args.end(), {"-debug-info-kind=limited", "-dwarf-version=4"});
    } else if (token == "-cl-no-stdinc") {
      default_header = false;
    } else if (token == "-cl-denorms-are-zero") {
      args.push_back("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
    } else {
      if (starts_with(token, "-cl-std=")) has_cl_std = true;
      args.push_back(token);
    }
  }
  return ok;
}

// -E in memory: the preprocessed text (comments dropped, line markers kept) into a string.
class PrintToStringAction final : public clang::PreprocessorFrontendAction {
 public:
  explicit PrintToStringAction(std::string& out) : out_(out) {}

 protected:
  void ExecuteAction() override {
    clang::PreprocessorOutputOptions options;
    options.ShowCPP = 1;
    options.ShowLineMarkers = 1;
    llvm::raw_string_ostream stream(out_);
    clang::DoPrintPreprocessedInput(getCompilerInstance().getPreprocessor(), &stream, options);
  }

 private:
  std::string& out_;
};

}  // namespace

Frontend::Frontend(std::string resource_dir) : resource_dir_(std::move(resource_dir)) {}

unsigned Frontend::optimization_level(const CompileRequest& request) {
  unsigned level = 2;
  for (const std::string& token : user_tokens(request)) {
    if (token == "-cl-opt-disable") {
      level = 0;
    } else if (starts_with(token, "-O") && token.size() == 3 && token[2] >= '0' &&
               token[2] <= '3') {
      level = static_cast<unsigned>(token[2] - '0');
    } else if (token == "-O" || token == "-Os" || token == "-Oz") {
      level = 2;
    }
  }
  return level;
}

// Everything a frontend run over the request needs: the parsed invocation and the
// in-memory file system overlaid on the real one.
struct Frontend::Setup {
  std::vector<std::string> arguments;
  std::string main_file;
  std::string shown;
  std::shared_ptr<clang::CompilerInvocation> invocation;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay;
};

std::optional<Frontend::Setup> Frontend::prepare(const CompileRequest& request,
                                                 const TargetSpec& target,
                                                 DiagnosticLog& log) const {
  if (!llvm::sys::fs::exists(resource_dir_ + "/include/opencl-c-base.h")) {
    log.error("the clang resource directory '" + resource_dir_ +
              "' has no include/opencl-c-base.h; set `resource_dir` in [compiler.clang] or "
              "PLEXUS_CLANG_RESOURCE_DIR (clang-15 -print-resource-dir)");
    return std::nullopt;
  }
  const bool cpp = request.language == SourceLanguage::cpp_for_opencl;
  const std::string dir = virtual_dir;
  Setup setup;
  // The source lives at its own path when source_name is one (so "" includes resolve beside
  // it on disk), else in the virtual directory; diagnostics name it as the request does.
  setup.shown =
      request.source_name.empty() ? (cpp ? "kernel.clcpp" : "kernel.cl") : request.source_name;
  setup.main_file = dir + "/" + setup.shown;
  if (setup.shown.find('/') != std::string::npos) {
    llvm::SmallString<256> absolute(setup.shown);
    llvm::sys::fs::make_absolute(absolute);
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
    setup.main_file = absolute.str().str();
  }

  std::vector<std::string>& args = setup.arguments;
  args = {"-triple",
          target.triple,
          "-x",
          cpp ? "clcpp" : "cl",
          "-resource-dir",
          resource_dir_,
          "-nostdsysteminc",
          "-nobuiltininc",
          "-internal-isystem",
          resource_dir_ + "/include",
          "-O2"};
  if (!target.cpu.empty()) args.insert(args.end(), {"-target-cpu", target.cpu});
  for (const std::string& feature : target.features)
    args.insert(args.end(), {"-target-feature", feature});
  if (target.typed_pointers) args.push_back("-no-opaque-pointers");
  if (target.fake_address_space_map) args.push_back("-ffake-address-space-map");
  bool has_cl_std = false, default_header = true;
  if (!translate_options(user_tokens(request), args, has_cl_std, default_header, log))
    return std::nullopt;
  // The OpenCL builtins from Clang's tables; the header only for types and macros.
  if (default_header)
    args.insert(args.end(), {"-finclude-default-header", "-fdeclare-opencl-builtins"});
  if (cpp && !has_cl_std) args.push_back("-cl-std=clc++2021");
  // Virtual include files are found with "" from the source and with <> through -I.
  args.insert(args.end(), {"-I", dir, setup.main_file});

  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& arg : args) argv.push_back(arg.c_str());

  ClangDiagnosticConsumer consumer(log, dir, setup.main_file, setup.shown);
  auto diagnostic_options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::DiagnosticsEngine option_diagnostics(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                                              diagnostic_options, &consumer,
                                              /*ShouldOwnClient=*/false);
  setup.invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*setup.invocation, argv, option_diagnostics) ||
      log.has_errors()) {
    if (!log.has_errors()) log.error("the build options were not accepted");
    return std::nullopt;
  }
  setup.invocation->getDiagnosticOpts().ShowCarets = false;  // no "N errors generated."
  setup.invocation->getFrontendOpts().DisableFree = false;

  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(setup.main_file, 0,
                  llvm::MemoryBuffer::getMemBufferCopy(request.source, setup.main_file));
  for (const VirtualFile& file : request.includes) {
    const std::string path = file.name.starts_with("/") ? file.name : dir + "/" + file.name;
    if (file.name.empty() ||
        !memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(file.content, path))) {
      log.error("the virtual include file '" + file.name +
                "' has an empty or invalid name, or is given twice with different contents");
      return std::nullopt;
    }
  }
  setup.overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  setup.overlay->pushOverlay(memory);
  return setup;
}

std::unique_ptr<llvm::Module> Frontend::compile(const CompileRequest& request,
                                                const TargetSpec& target,
                                                llvm::LLVMContext& context,
                                                DiagnosticLog& log) const {
  std::optional<Setup> setup = prepare(request, target, log);
  if (!setup) return nullptr;
  ClangDiagnosticConsumer consumer(log, virtual_dir, setup->main_file, setup->shown);
  clang::CompilerInstance instance;
  instance.setInvocation(std::move(setup->invocation));
  instance.createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  instance.createFileManager(setup->overlay);

  clang::EmitLLVMOnlyAction action(&context);
  if (!instance.ExecuteAction(action) || log.has_errors()) {
    if (!log.has_errors()) log.error("the frontend failed without a diagnostic");
    return nullptr;
  }
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module) log.error("the frontend produced no LLVM module");
  return module;
}

std::optional<Frontend::Preprocessed> Frontend::preprocess(const CompileRequest& request,
                                                           const TargetSpec& target) const {
  DiagnosticLog scratch;  // compile() reports whatever goes wrong here
  std::optional<Setup> setup = prepare(request, target, scratch);
  if (!setup) return std::nullopt;
  ClangDiagnosticConsumer consumer(scratch, virtual_dir, setup->main_file, setup->shown);
  clang::CompilerInstance instance;
  instance.setInvocation(std::move(setup->invocation));
  instance.createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  instance.createFileManager(setup->overlay);

  Preprocessed result;
  PrintToStringAction action(result.text);
  if (!instance.ExecuteAction(action) || scratch.has_errors()) return std::nullopt;
  result.arguments = std::move(setup->arguments);
  return result;
}

}  // namespace plexus::clang_compiler
