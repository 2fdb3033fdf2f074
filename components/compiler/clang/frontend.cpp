#include "frontend.hpp"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/StringSaver.h>
#include <llvm/Support/VirtualFileSystem.h>

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

std::unique_ptr<llvm::Module> Frontend::compile(const CompileRequest& request,
                                                const TargetSpec& target,
                                                llvm::LLVMContext& context,
                                                DiagnosticLog& log) const {
  if (!llvm::sys::fs::exists(resource_dir_ + "/include/opencl-c-base.h")) {
    log.error("the clang resource directory '" + resource_dir_ +
              "' has no include/opencl-c-base.h; set `resource_dir` in [compiler.clang] or "
              "PLEXUS_CLANG_RESOURCE_DIR (clang-15 -print-resource-dir)");
    return nullptr;
  }
  const bool cpp = request.language == SourceLanguage::cpp_for_opencl;
  const std::string dir = virtual_dir;
  // The source lives at its own path when source_name is one (so "" includes resolve beside
  // it on disk), else in the virtual directory; diagnostics name it as the request does.
  std::string shown =
      request.source_name.empty() ? (cpp ? "kernel.clcpp" : "kernel.cl") : request.source_name;
  std::string main_file = dir + "/" + shown;
  if (shown.find('/') != std::string::npos) {
    llvm::SmallString<256> absolute(shown);
    llvm::sys::fs::make_absolute(absolute);
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
    main_file = absolute.str().str();
  }

  std::vector<std::string> args = {"-triple",
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
    return nullptr;
  // The OpenCL builtins from Clang's tables; the header only for types and macros.
  if (default_header)
    args.insert(args.end(), {"-finclude-default-header", "-fdeclare-opencl-builtins"});
  if (cpp && !has_cl_std) args.push_back("-cl-std=clc++2021");
  // Virtual include files are found with "" from the source and with <> through -I.
  args.insert(args.end(), {"-I", dir, main_file});

  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& arg : args) argv.push_back(arg.c_str());

  ClangDiagnosticConsumer consumer(log, dir, main_file, shown);
  auto diagnostic_options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::DiagnosticsEngine option_diagnostics(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                                              diagnostic_options, &consumer,
                                              /*ShouldOwnClient=*/false);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, option_diagnostics) ||
      log.has_errors()) {
    if (!log.has_errors()) log.error("the build options were not accepted");
    return nullptr;
  }
  invocation->getDiagnosticOpts().ShowCarets = false;  // no "N errors generated." on stderr
  invocation->getFrontendOpts().DisableFree = false;

  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(main_file, 0, llvm::MemoryBuffer::getMemBufferCopy(request.source, main_file));
  for (const VirtualFile& file : request.includes) {
    const std::string path = file.name.starts_with("/") ? file.name : dir + "/" + file.name;
    if (file.name.empty() ||
        !memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(file.content, path))) {
      log.error("the virtual include file '" + file.name +
                "' has an empty or invalid name, or is given twice with different contents");
      return nullptr;
    }
  }
  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memory);

  clang::CompilerInstance instance;
  instance.setInvocation(std::move(invocation));
  instance.createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  instance.createFileManager(overlay);

  clang::EmitLLVMOnlyAction action(&context);
  if (!instance.ExecuteAction(action) || log.has_errors()) {
    if (!log.has_errors()) log.error("the frontend failed without a diagnostic");
    return nullptr;
  }
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module) log.error("the frontend produced no LLVM module");
  return module;
}

}  // namespace plexus::clang_compiler
