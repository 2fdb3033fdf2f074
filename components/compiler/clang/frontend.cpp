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
#include <clang/Basic/Version.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Bitcode/BitcodeWriter.h>

#include <algorithm>
#include <chrono>
#include <string_view>
#include <vector>

#include "clang_diagnostic_consumer.hpp"
#include "collectives_library.hpp"
#include "frontend_cache.hpp"
#include "frontend_options.hpp"
#include "key_hasher.hpp"
#include "plexus/log.hpp"
#include "precompiled_headers.hpp"
#include "sycl_prefix.hpp"
#include "sycl_source.hpp"

namespace plexus::clang_compiler {

namespace {

// The files `sources` read that are not in the in-memory file system (`in_memory` and
// everything under the virtual directory), sorted.
std::vector<std::string> disk_files_of(const clang::SourceManager& sources,
                                       const std::vector<std::string>& in_memory) {
  std::vector<std::string> files;
  for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
    const std::string name = it->first->getName().str();
    if (name.starts_with(Frontend::virtual_dir)) continue;
    if (std::find(in_memory.begin(), in_memory.end(), name) != in_memory.end()) continue;
    files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// -E in memory: the preprocessed text (comments dropped, line markers kept) into a string,
// and the files it read from disk. `Base` is PreprocessorFrontendAction, or with a PCH
// (-include-pch) ASTFrontendAction: Clang loads a PCH only for actions that build an AST (a
// preprocessor-only action includes the PCH's header as text instead), so that one is an
// AST action with an empty consumer that only preprocesses: the PCH's macros and include
// guards apply, and the headers it holds are not read again.
template <typename Base>
class PrintToStringAction final : public Base {
 public:
  PrintToStringAction(std::string& out, std::vector<std::string>& disk_files,
                      std::vector<std::string> in_memory)
      : out_(out), disk_files_(disk_files), in_memory_(std::move(in_memory)) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<clang::ASTConsumer>();  // not called for a preprocessor action
  }
  void ExecuteAction() override {
    clang::PreprocessorOutputOptions options;
    options.ShowCPP = 1;
    options.ShowLineMarkers = 1;
    llvm::raw_string_ostream stream(out_);
    clang::CompilerInstance& instance = this->getCompilerInstance();
    clang::DoPrintPreprocessedInput(instance.getPreprocessor(), &stream, options);
    disk_files_ = disk_files_of(instance.getSourceManager(), in_memory_);
  }

 private:
  std::string& out_;
  std::vector<std::string>& disk_files_;
  std::vector<std::string> in_memory_;  // the main file and absolute virtual includes
};

// -emit-pch into memory: the PCH's bytes go to `buffer` (no output file), and the files
// it read from disk to `disk_files`. Timestamps are left out (the input files are in memory
// or checked by PrecompiledHeaders), so equal inputs give equal bytes.
class InMemoryPchAction final : public clang::GeneratePCHAction {
 public:
  InMemoryPchAction(std::shared_ptr<clang::PCHBuffer> buffer, std::vector<std::string>& disk_files)
      : buffer_(std::move(buffer)), disk_files_(disk_files) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& instance,
                                                        llvm::StringRef) override {
    std::string sysroot;
    if (!ComputeASTConsumerArguments(instance, sysroot)) return nullptr;
    return std::make_unique<clang::PCHGenerator>(
        instance.getPreprocessor(), instance.getModuleCache(), "", sysroot, buffer_,
        instance.getFrontendOpts().ModuleFileExtensions, /*AllowASTWithErrors=*/false,
        /*IncludeTimestamps=*/false);
  }
  void ExecuteAction() override {
    clang::GeneratePCHAction::ExecuteAction();
    disk_files_ = disk_files_of(getCompilerInstance().getSourceManager(), {});
  }

 private:
  std::shared_ptr<clang::PCHBuffer> buffer_;
  std::vector<std::string>& disk_files_;
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

Frontend::Frontend(std::string resource_dir, FrontendLimits limits, bool sycl_pch,
                   const FrontendCache* cache, bool sycl_collectives, PrebuiltCollectives prebuilt)
    : resource_dir_(std::move(resource_dir)),
      limits_(limits),
      pchs_(sycl_pch ? std::make_unique<PrecompiledHeaders>() : nullptr),
      collectives_(sycl_collectives ? std::make_unique<PrecompiledHeaders>() : nullptr),
      cache_(cache),
      prebuilt_(std::move(prebuilt)) {}

Frontend::~Frontend() = default;

std::size_t Frontend::pch_builds() const { return pchs_ ? pchs_->builds() : 0; }
std::size_t Frontend::collectives_builds() const {
  return collectives_ ? collectives_->builds() : 0;
}

// Everything a frontend run over the request needs: the parsed invocation and the
// in-memory file system overlaid on the real one.
struct Frontend::Setup {
  std::vector<std::string> arguments;
  std::string main_file;
  std::string shown;
  std::shared_ptr<clang::CompilerInvocation> invocation;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay;
  llvm::IntrusiveRefCntPtr<RegularFilesOnly> disk;  // under `overlay`: says what it refused
  std::shared_ptr<const PrecompiledHeader> pch;     // <sycl/sycl.hpp> precompiled, or none
  // The collectives library's key and arguments where the headers call it (else empty).
  std::string collectives_key;
  std::vector<std::string> collectives_args;
};

namespace {

// The path of the PCH `key` in the in-memory file system.
std::string pch_path(const std::string& key) {
  return std::string(Frontend::virtual_dir) + "/__plexus_pch/" + key + ".pch";
}

std::string prefix_path() {
  return std::string(Frontend::virtual_dir) + "/" + compiler_shared::SyclPrefix::file_name;
}

// The SYCL headers and the prefix in a new in-memory file system, and `pch` (may be null).
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> in_memory_headers(
    const std::shared_ptr<const PrecompiledHeader>& pch) {
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(prefix_path(), 0,
                  llvm::MemoryBuffer::getMemBuffer(compiler_shared::SyclPrefix::text, prefix_path()));
  for (const compiler_shared::SyclHeaderFile& header : compiler_shared::sycl_header_files()) {
    const std::string path = std::string(Frontend::virtual_dir) + "/" +
                             compiler_shared::SyclSource::header_dir + "/" + header.path;
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBuffer(header.content, path));
  }
  if (pch)
    memory->addFileNoOwn(pch_path(pch->key), 0, llvm::MemoryBufferRef(pch->bytes, pch_path(pch->key)));
  return memory;
}

// Gives `instance` `invocation`, `consumer` and `memory` overlaid on the real file system
// (regular files of `max_bytes` at most); returns the real file system's layer (it says
// what it refused).
llvm::IntrusiveRefCntPtr<RegularFilesOnly> use_files(
    clang::CompilerInstance& instance, std::shared_ptr<clang::CompilerInvocation> invocation,
    clang::DiagnosticConsumer& consumer,
    const llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem>& memory, std::size_t max_bytes) {
  auto disk = llvm::makeIntrusiveRefCnt<RegularFilesOnly>(llvm::vfs::getRealFileSystem(), max_bytes);
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(disk);
  overlay->pushOverlay(memory);
  instance.setInvocation(std::move(invocation));
  instance.createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  instance.createFileManager(overlay);
  return disk;
}

// An invocation from -cc1 arguments; nullptr with errors in `log` when they are refused.
std::shared_ptr<clang::CompilerInvocation> invocation_of(const std::vector<std::string>& args,
                                                         clang::DiagnosticConsumer& consumer,
                                                         DiagnosticLog& log) {
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& arg : args) argv.push_back(arg.c_str());
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
  invocation->getDiagnosticOpts().ShowCarets = false;  // no "N errors generated."
  invocation->getFrontendOpts().DisableFree = false;
  return invocation;
}

}  // namespace

std::shared_ptr<const PrecompiledHeader> Frontend::precompiled_sycl(
    const std::vector<std::string>& args) const {
  // Everything the PCH depends on: the compiler, its command line (target, language,
  // options, include paths), the prefix and the headers (the resource headers it reads from
  // disk are checked by PrecompiledHeaders at each use).
  KeyHasher hasher;
  hasher.add("plexus sycl pch 1").add(clang::getClangFullVersion());
  hasher.add(args.size());
  for (const std::string& arg : args) hasher.add(arg);
  hasher.add(compiler_shared::SyclPrefix::text);
  for (const compiler_shared::SyclHeaderFile& header : compiler_shared::sycl_header_files())
    hasher.add(header.path).add(header.content);
  const std::string key = hasher.hex();
  return pchs_->get(key, [&] {
    return stored_or_built("pch/sycl", key, args, [&] { return build_pch(key, args); });
  });
}

std::shared_ptr<const PrecompiledHeader> Frontend::stored_or_built(
    const std::string& device, const std::string& key, const std::vector<std::string>& args,
    const std::function<std::shared_ptr<const PrecompiledHeader>()>& build) const {
  std::optional<FrontendCache::Key> stored;
  if (cache_) {
    stored = cache_->pch_key(key, args, device);
    if (std::optional<PchEntry> entry = cache_->load_pch(*stored)) {
      auto header = std::make_shared<PrecompiledHeader>();
      header->key = key;
      header->bytes = std::move(entry->bytes);
      header->disk_files = std::move(entry->disk_files);
      if (disk_files_unchanged(*header)) return header;
    }
  }
  std::shared_ptr<const PrecompiledHeader> built = build();
  if (built && stored) cache_->store_pch(*stored, {{}, built->disk_files, built->bytes});
  return built;
}

std::string Frontend::collectives_key(const std::vector<std::string>& args,
                                     const std::shared_ptr<const PrecompiledHeader>& pch) {
  // Everything the library's bytes depend on: what the PCH's do (its key, or the same inputs
  // when there is none) and the library's source.
  KeyHasher hasher;
  hasher.add("plexus sycl collectives 1").add(clang::getClangFullVersion());
  hasher.add(args.size());
  for (const std::string& arg : args) hasher.add(arg);
  hasher.add(pch ? pch->key : std::string("no pch")).add(collectives_source());
  hasher.add(compiler_shared::SyclPrefix::text);
  for (const compiler_shared::SyclHeaderFile& header : compiler_shared::sycl_header_files())
    hasher.add(header.path).add(header.content);
  return hasher.hex();
}

std::shared_ptr<const PrecompiledHeader> Frontend::collectives_library(
    const std::string& key, const std::vector<std::string>& args,
    const std::shared_ptr<const PrecompiledHeader>& pch) const {
  // The build's library for this command line, else the store's, else built (and saved
  // where the build step asks for it).
  return collectives_->get(key, [&]() -> std::shared_ptr<const PrecompiledHeader> {
    if (std::shared_ptr<const PrecompiledHeader> prebuilt = prebuilt_.load(key)) return prebuilt;
    return stored_or_built("library/sycl_collectives", key, args, [&] {
      std::shared_ptr<const PrecompiledHeader> built = build_collectives(key, args, pch);
      if (built) prebuilt_.save(*built);
      return built;
    });
  });
}

std::shared_ptr<const PrecompiledHeader> Frontend::build_collectives(
    const std::string& key, const std::vector<std::string>& common,
    const std::shared_ptr<const PrecompiledHeader>& pch) const {
  const auto start = std::chrono::steady_clock::now();
  const std::string main_file = std::string(virtual_dir) + "/__plexus_sycl_collectives.cpp";
  std::vector<std::string> args = common;
  if (pch) args.insert(args.end(), {"-include-pch", pch_path(pch->key)});
  args.push_back(main_file);
  DiagnosticLog log;
  ClangDiagnosticConsumer consumer(log, virtual_dir, main_file, "__plexus_sycl_collectives.cpp",
                                   limits_.max_errors);
  std::shared_ptr<clang::CompilerInvocation> invocation = invocation_of(args, consumer, log);
  if (!invocation) return nullptr;
  auto memory = in_memory_headers(pch);
  memory->addFile(main_file, 0, llvm::MemoryBuffer::getMemBuffer(collectives_source(), main_file));
  clang::CompilerInstance instance;
  auto disk = use_files(instance, std::move(invocation), consumer, memory, limits_.max_source_bytes);
  llvm::LLVMContext context;
  auto emit = std::make_unique<clang::EmitLLVMOnlyAction>(&context);
  clang::EmitLLVMOnlyAction& action = *emit;
  LimitedAction limited(std::move(emit), limits_);
  std::unique_ptr<llvm::Module> module;
  if (instance.ExecuteAction(limited) && !log.has_errors() && disk->refusals().empty())
    module = action.takeModule();
  if (!module) {
    // Not expected (the headers are Plexus's); the compile that needs it fails.
    logger().warn("compiler clang: the SYCL collectives were not precompiled: {}", log.text());
    return nullptr;
  }
  auto library = std::make_shared<PrecompiledHeader>();
  library->key = key;
  llvm::raw_string_ostream out(library->bytes);
  llvm::WriteBitcodeToFile(*module, out);
  out.flush();
  if (pch) library->disk_files = pch->disk_files;
  for (const std::string& file : disk_files_of(instance.getSourceManager(), {}))
    library->disk_files.emplace_back(file, disk_identity(file));
  library->build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  logger().debug("compiler clang: precompiled the SYCL collectives ({} bytes) in {:.1f} ms",
                 library->bytes.size(), library->build_ms);
  return library;
}

std::shared_ptr<const PrecompiledHeader> Frontend::build_pch(
    const std::string& key, const std::vector<std::string>& common) const {
  const auto start = std::chrono::steady_clock::now();
  const std::string main_file = prefix_path();
  std::vector<std::string> args = common;
  args.insert(args.end(), {"-emit-pch", main_file});
  DiagnosticLog log;
  ClangDiagnosticConsumer consumer(log, virtual_dir, main_file,
                                   compiler_shared::SyclPrefix::file_name, limits_.max_errors);
  std::shared_ptr<clang::CompilerInvocation> invocation = invocation_of(args, consumer, log);
  if (!invocation) return nullptr;
  auto memory = in_memory_headers(nullptr);
  clang::CompilerInstance instance;
  auto disk = use_files(instance, std::move(invocation), consumer, memory, limits_.max_source_bytes);
  auto buffer = std::make_shared<clang::PCHBuffer>();
  std::vector<std::string> disk_files;
  LimitedAction action(std::make_unique<InMemoryPchAction>(buffer, disk_files), limits_);
  if (!instance.ExecuteAction(action) || log.has_errors() || !disk->refusals().empty() ||
      !buffer->IsComplete) {
    // Not expected (the headers are Plexus's): compile without it, where errors show.
    logger().warn("compiler clang: <sycl/sycl.hpp> was not precompiled; compiling without: {}",
                  log.text());
    return nullptr;
  }
  auto header = std::make_shared<PrecompiledHeader>();
  header->key = key;
  header->bytes.assign(buffer->Data.begin(), buffer->Data.end());
  for (const std::string& file : disk_files) header->disk_files.emplace_back(file, disk_identity(file));
  header->build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  logger().debug("compiler clang: precompiled <sycl/sycl.hpp> ({} bytes) in {:.1f} ms",
                 header->bytes.size(), header->build_ms);
  return header;
}

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
  std::optional<std::vector<std::string>> arguments =
      compiler_shared::FrontendOptions::arguments(request, target, resource_dir_,
                                                  limits_.max_errors, log);
  if (!arguments) return std::nullopt;
  std::vector<std::string>& args = setup.arguments;
  args = std::move(*arguments);
  // Virtual include files are found with "" from the source and with <> through -I (SYCL's
  // headers through -internal-isystem).
  const std::vector<std::string> includes =
      compiler_shared::FrontendOptions::include_arguments(request, dir);
  args.insert(args.end(), includes.begin(), includes.end());
  bool pch_applies = false;
  if (pchs_ && request.language == SourceLanguage::sycl) {
    std::string why;
    pch_applies = compiler_shared::SyclPrefix::applies(request, why);
    if (!pch_applies)
      logger().debug("compiler clang: <sycl/sycl.hpp> not precompiled for this source: {}", why);
  }
  // The library is built (or loaded) only for a module that calls it (compile_here).
  if (collectives_ && links_collectives(request))
    args.push_back(std::string("-D") + collectives_macro);
  if (pch_applies) setup.pch = precompiled_sycl(args);
  if (collectives_ && links_collectives(request)) {
    setup.collectives_key = collectives_key(args, setup.pch);
    setup.collectives_args = args;
  }
  if (setup.pch) args.insert(args.end(), {"-include-pch", pch_path(setup.pch->key)});
  args.push_back(setup.main_file);

  ClangDiagnosticConsumer consumer(log, dir, setup.main_file, setup.shown, limits_.max_errors);
  setup.invocation = invocation_of(args, consumer, log);
  if (!setup.invocation) return std::nullopt;

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
  if (setup.pch) {
    memory->addFile(prefix_path(), 0,
                    llvm::MemoryBuffer::getMemBuffer(compiler_shared::SyclPrefix::text));
    memory->addFileNoOwn(pch_path(setup.pch->key), 0,
                         llvm::MemoryBufferRef(setup.pch->bytes, pch_path(setup.pch->key)));
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
  ClangDiagnosticConsumer consumer(log, virtual_dir, setup->main_file, setup->shown,
                                   limits_.max_errors);
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
  if (module && !setup->collectives_key.empty() && calls_collectives(*module)) {
    const std::shared_ptr<const PrecompiledHeader> library =
        collectives_library(setup->collectives_key, setup->collectives_args, setup->pch);
    if (!library) {
      log.error("internal: the precompiled SYCL collectives could not be built (see the log)");
      return nullptr;
    }
    if (!link_collectives(*module, library->bytes, log)) return nullptr;
  }
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
  ClangDiagnosticConsumer consumer(scratch, virtual_dir, setup->main_file, setup->shown,
                                   limits_.max_errors);
  clang::CompilerInstance instance;
  instance.setInvocation(std::move(setup->invocation));
  instance.createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  instance.createFileManager(setup->overlay);

  Preprocessed result;
  std::vector<std::string> in_memory = {setup->main_file};
  for (const VirtualFile& file : request.includes) in_memory.push_back(file.name);
  std::unique_ptr<clang::FrontendAction> print;
  if (setup->pch)
    print = std::make_unique<PrintToStringAction<clang::ASTFrontendAction>>(
        result.text, result.disk_files, std::move(in_memory));
  else
    print = std::make_unique<PrintToStringAction<clang::PreprocessorFrontendAction>>(
        result.text, result.disk_files, std::move(in_memory));
  LimitedAction action(std::move(print), limits_);
  if (!instance.ExecuteAction(action) || scratch.has_errors() || !setup->disk->refusals().empty())
    return std::nullopt;
  if (setup->pch) {  // what the PCH read from disk, as if it had been read here
    for (const auto& file : setup->pch->disk_files) result.disk_files.push_back(file.first);
    std::sort(result.disk_files.begin(), result.disk_files.end());
    result.disk_files.erase(std::unique(result.disk_files.begin(), result.disk_files.end()),
                            result.disk_files.end());
  }
  result.arguments = std::move(setup->arguments);
  if (!setup->collectives_key.empty())  // the library the frontend may link: part of the key
    result.arguments.push_back("collectives library " + setup->collectives_key);
  return result;
}

}  // namespace plexus::clang_compiler
