#include "frontend.hpp"

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/PreprocessorOutputOptions.h>
#include <clang/Frontend/Utils.h>
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "clang_diagnostic_consumer.hpp"
#include "frontend_options.hpp"

namespace plexus::clang_compiler {

namespace {

// -E in memory: the preprocessed text (comments dropped, line markers kept) into a string,
// and the paths of the files it read that are not in the in-memory file system.
class PrintToStringAction final : public clang::PreprocessorFrontendAction {
 public:
  PrintToStringAction(std::string& out, std::vector<std::string>& disk_files,
                      std::vector<std::string> in_memory)
      : out_(out), disk_files_(disk_files), in_memory_(std::move(in_memory)) {}

 protected:
  void ExecuteAction() override {
    clang::PreprocessorOutputOptions options;
    options.ShowCPP = 1;
    options.ShowLineMarkers = 1;
    llvm::raw_string_ostream stream(out_);
    clang::DoPrintPreprocessedInput(getCompilerInstance().getPreprocessor(), &stream, options);
    const clang::SourceManager& sources = getCompilerInstance().getSourceManager();
    for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
      const std::string name = it->first->getName().str();
      if (name.starts_with(Frontend::virtual_dir)) continue;
      if (std::find(in_memory_.begin(), in_memory_.end(), name) != in_memory_.end()) continue;
      disk_files_.push_back(name);
    }
    std::sort(disk_files_.begin(), disk_files_.end());
  }

 private:
  std::string& out_;
  std::vector<std::string>& disk_files_;
  std::vector<std::string> in_memory_;  // the main file and absolute virtual includes
};

// Runs `inner` with TokenLimits watching the preprocessor it creates.
class LimitedAction final : public clang::WrapperFrontendAction {
 public:
  LimitedAction(std::unique_ptr<clang::FrontendAction> inner, const FrontendLimits& limits)
      : WrapperFrontendAction(std::move(inner)), limits_(limits) {}

 protected:
  bool BeginSourceFileAction(clang::CompilerInstance& instance) override {
    if (!WrapperFrontendAction::BeginSourceFileAction(instance)) return false;
    limits_.watch(instance.getPreprocessor());
    return true;
  }

 private:
  TokenLimits limits_;
};

}  // namespace

std::string Frontend::main_file_of(const CompileRequest& request, std::string& shown) {
  // The source lives at its own path when source_name is one (so "" includes resolve beside
  // it on disk), else in the virtual directory; diagnostics name it as the request does.
  shown = request.source_name.empty()
              ? compiler_shared::FrontendOptions::default_source_name(request.language)
              : request.source_name;
  if (shown.find('/') == std::string::npos) return std::string(virtual_dir) + "/" + shown;
  llvm::SmallString<256> absolute(shown);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return absolute.str().str();
}

std::string Frontend::shown_name(const CompileRequest& request, const std::string& path) {
  std::string shown;
  if (path == main_file_of(request, shown)) return shown;
  const std::string dir = std::string(virtual_dir) + "/";
  return path.starts_with(dir) ? path.substr(dir.size()) : path;
}

Frontend::Frontend(std::string resource_dir, FrontendLimits limits)
    : resource_dir_(std::move(resource_dir)), limits_(limits) {}

// Everything a frontend run over the request needs: the parsed invocation and the
// in-memory file system overlaid on the real one.
struct Frontend::Setup {
  std::vector<std::string> arguments;
  std::string main_file;
  std::string shown;
  std::shared_ptr<clang::CompilerInvocation> invocation;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay;
  llvm::IntrusiveRefCntPtr<RegularFilesOnly> disk;  // under `overlay`: says what it refused
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
  const std::string dir = virtual_dir;
  Setup setup;
  setup.main_file = main_file_of(request, setup.shown);

  std::optional<std::vector<std::string>> arguments =
      compiler_shared::FrontendOptions::arguments(request, target, resource_dir_, log);
  if (!arguments) return std::nullopt;
  std::vector<std::string>& args = setup.arguments;
  args = std::move(*arguments);
  // Virtual include files are found with "" from the source and with <> through -I (SYCL's
  // headers through -internal-isystem).
  const std::vector<std::string> includes =
      compiler_shared::FrontendOptions::include_arguments(request, dir);
  args.insert(args.end(), includes.begin(), includes.end());
  args.push_back(setup.main_file);

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

  const auto too_large = [&](const std::string& what, std::size_t bytes) {
    if (bytes <= limits_.max_source_bytes) return false;
    log.error(what + " has " + std::to_string(bytes) + " bytes, more than max_source_bytes (" +
              std::to_string(limits_.max_source_bytes) + ") of [compiler.clang]");
    return true;
  };
  if (too_large("the source", request.source.size())) return std::nullopt;
  for (const VirtualFile& file : request.includes)
    if (too_large("the virtual include file '" + file.name + "'", file.content.size()))
      return std::nullopt;
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
  setup.disk = llvm::makeIntrusiveRefCnt<RegularFilesOnly>(llvm::vfs::getRealFileSystem(),
                                                          limits_.max_source_bytes);
  setup.overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(setup.disk);
  setup.overlay->pushOverlay(memory);
  return setup;
}

std::unique_ptr<llvm::Module> Frontend::compile(const CompileRequest& request,
                                                const TargetSpec& target,
                                                llvm::LLVMContext& context,
                                                DiagnosticLog& log) const {
  std::unique_ptr<llvm::Module> module;
  run_on_frontend_thread([&] { module = compile_here(request, target, context, log); });
  return module;
}

std::unique_ptr<llvm::Module> Frontend::compile_here(const CompileRequest& request,
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

  auto emit = std::make_unique<clang::EmitLLVMOnlyAction>(&context);
  clang::EmitLLVMOnlyAction& action = *emit;
  LimitedAction limited(std::move(emit), limits_);
  const bool executed = instance.ExecuteAction(limited);
  for (const std::string& refused : setup->disk->refusals()) log.error(refused);
  if (!executed || log.has_errors()) {
    if (!log.has_errors()) log.error("the frontend failed without a diagnostic");
    return nullptr;
  }
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module) log.error("the frontend produced no LLVM module");
  return module;
}

std::optional<Frontend::Preprocessed> Frontend::preprocess(const CompileRequest& request,
                                                           const TargetSpec& target) const {
  std::optional<Preprocessed> result;
  run_on_frontend_thread([&] { result = preprocess_here(request, target); });
  return result;
}

std::optional<Frontend::Preprocessed> Frontend::preprocess_here(const CompileRequest& request,
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
  std::vector<std::string> in_memory = {setup->main_file};
  for (const VirtualFile& file : request.includes) in_memory.push_back(file.name);
  LimitedAction action(
      std::make_unique<PrintToStringAction>(result.text, result.disk_files, std::move(in_memory)),
      limits_);
  if (!instance.ExecuteAction(action) || scratch.has_errors() || !setup->disk->refusals().empty())
    return std::nullopt;
  result.arguments = std::move(setup->arguments);
  return result;
}

}  // namespace plexus::clang_compiler
