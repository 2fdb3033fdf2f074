#include "clang_compiler.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstdlib>

#include "bounds_checks.hpp"
#include "cancel_points.hpp"
#include "device_libraries.hpp"
#include "diagnostic_log.hpp"
#include "direct_cache.hpp"
#include "frontend.hpp"
#include "frontend_cache.hpp"
#include "frontend_options.hpp"
#include "toolchain_options.hpp"
#include "input_reader.hpp"
#include "kernel_inspector.hpp"
#include "kernel_selector.hpp"
#include "llvm_diagnostic_handler.hpp"
#include "plexus/error.hpp"
#include "sycl_source.hpp"
#include "plexus/log.hpp"
#include "target_emitter.hpp"
#include "target_spec.hpp"

namespace plexus::clang_compiler {

namespace {

// The version in registration.cpp: part of every cache key.
constexpr const char* component_version = "0.1.0";

// Diagnostics replayed from a cached frontend result come before this run's.
struct Replayed {
  std::vector<Diagnostic> diagnostics;
  std::string log;
};

CompileResult finish(CompileResult result, DiagnosticLog& log, Replayed replayed = {}) {
  result.diagnostics = std::move(replayed.diagnostics);
  for (Diagnostic& diagnostic : log.take_diagnostics())
    result.diagnostics.push_back(std::move(diagnostic));
  result.log = std::move(replayed.log) + log.take_text();
  return result;
}

// What the back end links for `spec`, as path, size and modification time: a changed
// library is a different level-2 key.
std::string library_identity(const std::string& path) {
  if (path.empty()) return "none";
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status)) return path + " (missing)";
  return path + " " + std::to_string(status.getSize()) + " " +
         std::to_string(status.getLastModificationTime().time_since_epoch().count());
}

// The frontend's module from its bitcode, in `context` (cold compiles and frontend-cache
// hits alike).
llvm::Expected<std::unique_ptr<llvm::Module>> frontend_module(const std::vector<std::byte>& bitcode,
                                                              const TargetSpec& spec,
                                                              llvm::LLVMContext& context) {
  context.setOpaquePointers(!spec.typed_pointers);
  const llvm::StringRef bytes(reinterpret_cast<const char*>(bitcode.data()), bitcode.size());
  return llvm::parseBitcodeFile(llvm::MemoryBufferRef(bytes, "frontend.bc"), context);
}

// [compiler.clang] max_source_bytes, max_tokens, timeout_s (README.md: ranges).
FrontendLimits frontend_limits(const ComponentOptions& options) {
  FrontendLimits limits;
  limits.max_source_bytes = static_cast<std::uint64_t>(options.get_in_range(
      "max_source_bytes", static_cast<std::int64_t>(limits.max_source_bytes), 1024,
      std::int64_t{1} << 30));
  limits.max_tokens = static_cast<std::uint64_t>(options.get_in_range(
      "max_tokens", static_cast<std::int64_t>(limits.max_tokens), 1024, std::int64_t{1} << 28));
  limits.timeout = std::chrono::seconds(options.get_in_range("timeout_s", 0, 0, 86400));
  return limits;
}

}  // namespace

// [compiler.clang]: every option the component reads (clang_compiler.hpp).
struct ClangCompiler::Settings {
  compiler_shared::ToolchainOptions toolchain;
  FrontendLimits limits;
  bool frontend_cache = true;
  bool binary_cache = true;
  bool direct_cache = true;
  bool sycl_pch = true;
  bool sycl_collectives = true;
  PrebuiltCollectives prebuilt_collectives;
};

ClangCompiler::Settings ClangCompiler::read_settings(const ComponentOptions& options) {
  Settings settings;
  settings.toolchain = compiler_shared::read_toolchain_options(options, PLEXUS_CLANG_RESOURCE_DIR,
                                                               PLEXUS_LIBCLC_DIR);
  settings.limits = frontend_limits(options);
  settings.limits.max_errors = settings.toolchain.max_errors;
  settings.frontend_cache = options.get<bool>("frontend_cache", true);
  settings.binary_cache = options.get<bool>("binary_cache", true);
  settings.direct_cache = options.get<bool>("direct_cache", true);
  settings.sycl_pch = options.get<bool>("sycl_pch", true);
  settings.sycl_collectives = options.get<bool>("sycl_collectives", true);
  settings.prebuilt_collectives = PrebuiltCollectives::from_options(options);
  return settings;
}

void ClangCompiler::check_options(const ComponentOptions& options) { read_settings(options); }

ClangCompiler::ClangCompiler(PluginContext& context)
    : ClangCompiler(context, read_settings(context.options)) {}

ClangCompiler::ClangCompiler(PluginContext& context, const Settings& settings)
    : resource_dir_(settings.toolchain.resource_dir),
      libclc_dir_(settings.toolchain.libclc_dir),
      host_device_library_(settings.toolchain.host_device_library),
      libraries_(std::make_unique<DeviceLibraries>()),
      emitter_(std::make_unique<TargetEmitter>(*libraries_, libclc_dir_, host_device_library_)),
      binary_cache_(settings.binary_cache),
      bounds_checks_(settings.toolchain.bounds_checks),
      cancel_points_(settings.toolchain.cancel_points) {
  TargetEmitter::initialize_llvm_targets();
  const bool use_cache = settings.frontend_cache;
  if (CacheStore* store = context.components.cache(); store && use_cache) {
    cache_ = std::make_unique<FrontendCache>(*store, component_version);
    if (settings.direct_cache) direct_ = std::make_unique<DirectCache>(*cache_);
  }
  frontend_ = std::make_unique<Frontend>(resource_dir_, settings.limits, settings.sycl_pch,
                                         cache_.get(), settings.sycl_collectives,
                                         settings.prebuilt_collectives);
  logger().debug("compiler clang: resource_dir {}, libclc_dir {}, prebuilt collectives '{}', "
                 "cache {}", resource_dir_, libclc_dir_, settings.prebuilt_collectives.dir(),
                 cache_ ? "on" : (use_cache ? "off (no cache store)" : "off (frontend_cache)"));
}

ClangCompiler::~ClangCompiler() = default;

std::vector<BinaryFormat> ClangCompiler::targets() const {
  std::vector<BinaryFormat> formats = {BinaryFormat::spirv, BinaryFormat::spir_bitcode,
                                       BinaryFormat::ptx, BinaryFormat::llvm_bitcode};
  std::string why;
  if (TargetEmitter::target_available(target_spec_for(BinaryFormat::amdgcn, ""), why))
    formats.push_back(BinaryFormat::amdgcn);
  return formats;
}

CompileResult ClangCompiler::compile(const CompileRequest& original) {
  // SYCL source: the headers now (in every key), the kernels' entry points once the direct
  // cache missed (SyclSource; the frontend's module is finished before it is cached).
  const bool sycl = original.language == SourceLanguage::sycl;
  std::optional<CompileRequest> sycl_request;
  if (sycl) sycl_request = compiler_shared::SyclSource::with_headers(original);
  const CompileRequest& request = sycl_request ? *sycl_request : original;
  const TargetSpec spec = target_spec_for(request.target, request.target_architecture);
  if (std::string why; !TargetEmitter::target_available(spec, why))
    throw error(
        error_category::unsupported,
        "compiler 'clang' cannot produce " + std::string(to_string(request.target)) + ": " + why);
  CompileResult result;
  result.format = request.target;
  DiagnosticLog log;
  if (!TargetEmitter::check_processor(spec, log)) return finish(std::move(result), log);
  if (request.source.empty()) {
    log.error(compiler_shared::FrontendOptions::is_source(request.language)
                  ? "the kernel source is empty: nothing to compile"
                  : "the input is empty: nothing to compile");
    return finish(std::move(result), log);
  }

  const auto start = std::chrono::steady_clock::now();
  const bool source = compiler_shared::FrontendOptions::is_source(request.language);
  const auto from_binary_entry = [&](BinaryEntry entry) {
    result.binary = std::move(entry.binary);
    result.kernels = std::move(entry.kernels);
    result.diagnostics = std::move(entry.diagnostics);
    result.log = std::move(entry.log);
    result.binary_cache_hit = true;
    result.succeeded = true;
    return std::move(result);
  };
  // Cache keys: direct (the raw request, checked against the headers it read last time),
  // level 1 from the preprocessed source (nothing when it does not preprocess: the frontend
  // reports why), level 2 from level 1 and the back end's inputs.
  std::optional<FrontendCache::Key> direct, level1, level2;
  std::optional<Frontend::Preprocessed> preprocessed;
  // IR-only results (request.emit_ir) are not binaries: the binary cache is not used.
  const bool binary_cache = binary_cache_ && !request.emit_ir;
  // Cancellable kernels: SPIR targets only (cancel_points.hpp).
  const bool cancel_points = cancel_points_ && compiler_shared::takes_cancel_points(request.target);
  if (cache_) {
    // What the back end adds to the frontend's module: the device libraries, the bounds
    // checks and the cancel points (a checked or cancellable build is another binary).
    const std::string libraries =
        library_identity(spec.libclc_file.empty() ? "" : libclc_dir_ + "/" + spec.libclc_file) +
        "; " +
        library_identity(request.target == BinaryFormat::llvm_bitcode ? host_device_library_ : "") +
        (bounds_checks_ ? "; checks bounds" : "") + (cancel_points ? "; cancel work_group" : "");
    if (source && binary_cache && direct_) {
      direct = direct_->key(request, spec, libraries);
      if (std::optional<FrontendCache::Key> known = direct_->resolve(*direct)) {
        if (std::optional<BinaryEntry> entry = cache_->load_binary(*known);
            entry && entry->format == request.target)
          return from_binary_entry(std::move(*entry));
      }
    }
    if (sycl && !lower_sycl(*sycl_request, spec, log)) return finish(std::move(result), log);
    if (source) {
      preprocessed = frontend_->preprocess(request, spec);
      if (preprocessed) level1 = cache_->frontend_key(*preprocessed, request.language, spec);
    } else {
      level1 = cache_->input_key(request, request.options, spec);
    }
    if (level1 && binary_cache) {
      level2 = cache_->binary_key(*level1, request, spec, libraries);
      if (std::optional<BinaryEntry> entry = cache_->load_binary(*level2);
          entry && entry->format == request.target) {
        if (direct && preprocessed) direct_->record(*direct, *level2, preprocessed->disk_files);
        return from_binary_entry(std::move(*entry));
      }
    }
  }

  if (sycl && !cache_ && !lower_sycl(*sycl_request, spec, log))
    return finish(std::move(result), log);
  const auto lowered = std::chrono::steady_clock::now();

  llvm::LLVMContext context;
  context.setDiagnosticHandler(std::make_unique<LlvmDiagnosticHandler>(log));
  std::unique_ptr<llvm::Module> module;
  Replayed replayed;
  if (source && level1) {
    if (std::optional<FrontendEntry> entry = cache_->load_frontend(*level1)) {
      // The entry's checksum (cache_entry_format) was verified: damaged bytes are not
      // parsed. (Forking for the reader here cost 10-30 ms a hit, more than the hit saves.)
      llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
          frontend_module(entry->bitcode, spec, context);
      if (parsed) {
        module = std::move(*parsed);
        replayed = {std::move(entry->diagnostics), std::move(entry->log)};
        result.frontend_cache_hit = true;
      } else {
        cache_->discard(*level1, llvm::toString(parsed.takeError()));
      }
    }
  }
  if (module) {
    // from the cache
  } else if (source) {
    // The frontend runs in a context of its own, and its module goes on as its bitcode
    // parsed into `context`: exactly what a frontend-cache hit does. An LLVMContext keeps
    // its history (metadata kinds registered, value names, attribute groups), which the
    // bitcode written from it shows, so only this makes a hit's bytes those of a cold
    // compile (content hashes of the binaries stay stable).
    llvm::LLVMContext frontend_context;
    frontend_context.setDiagnosticHandler(std::make_unique<LlvmDiagnosticHandler>(log));
    std::unique_ptr<llvm::Module> compiled = frontend_->compile(request, spec, frontend_context, log);
    if (compiled && sycl) compiler_shared::SyclSource::finish(*compiled, log);
    if (compiled && !log.has_errors()) {
      const std::vector<std::byte> bitcode = bitcode_of(*compiled);
      compiled.reset();  // before its context
      if (level1) cache_->store_frontend(*level1, {{}, log.diagnostics(), log.text(), bitcode});
      llvm::Expected<std::unique_ptr<llvm::Module>> parsed = frontend_module(bitcode, spec, context);
      if (parsed) module = std::move(*parsed);
      else log.error("internal: the frontend's bitcode does not parse: " + llvm::toString(parsed.takeError()));
    }
  } else {
    // SPIR targets keep the pointer mode of the input (the translator wants typed pointers);
    // the others link libclc, which is opaque-pointer bitcode, so typed inputs are upgraded.
    if (request.language == SourceLanguage::spirv && spec.typed_pointers)
      context.setOpaquePointers(false);
    else if (!spec.typed_pointers)
      context.setOpaquePointers(true);
    module = InputReader::read(request, context, log);
    if (module && !triple_matches(spec, module->getTargetTriple())) {
      log.error("the input module is for '" + module->getTargetTriple() +
                "', which cannot be compiled to " + std::string(to_string(request.target)) +
                " (needs " + spec.triple + ")");
      module.reset();
    } else if (module && module->getTargetTriple().empty()) {
      module->setTargetTriple(spec.triple);
    }
  }
  if (!module || log.has_errors()) return finish(std::move(result), log, std::move(replayed));

  if (!request.kernel_name.empty() && !KernelSelector::keep_only(*module, request.kernel_name, log))
    return finish(std::move(result), log, std::move(replayed));
  const auto frontend_done = std::chrono::steady_clock::now();
  result.kernels = KernelInspector::inspect(*module);
  if (request.emit_ir) {  // stop before the device library and the back end
    result.binary = bitcode_of(*module);
    result.format = BinaryFormat::llvm_bitcode;
    result.succeeded = true;
    module.reset();
    return finish(std::move(result), log, std::move(replayed));
  }
  if (bounds_checks_ && !compiler_shared::add_bounds_checks(*module, result.kernels, log))
    return finish(std::move(result), log, std::move(replayed));
  if (cancel_points) compiler_shared::add_cancel_points(*module, result.kernels, log);
  std::optional<std::vector<std::byte>> binary = emitter_->emit(
      *module, spec, compiler_shared::FrontendOptions::optimization_level(request), log);
  module.reset();  // before the context and the log it reports to
  using milliseconds = std::chrono::duration<double, std::milli>;
  logger().debug("compiler clang: {}: frontend/input {:.2f} ms{} (SYCL lowering and cache "
                 "lookups {:.2f} ms), back end {:.2f} ms",
                 to_string(request.target), milliseconds(frontend_done - start).count(),
                 result.frontend_cache_hit ? " (cached)" : "",
                 milliseconds(lowered - start).count(),
                 milliseconds(std::chrono::steady_clock::now() - frontend_done).count());
  if (!binary || log.has_errors()) return finish(std::move(result), log, std::move(replayed));
  result.binary = std::move(*binary);
  result.succeeded = true;
  result = finish(std::move(result), log, std::move(replayed));
  if (level2) {
    cache_->store_binary(
        *level2,
        {{}, result.format, result.diagnostics, result.log, result.kernels, result.binary});
    if (direct && preprocessed) direct_->record(*direct, *level2, preprocessed->disk_files);
  }
  return result;
}

bool ClangCompiler::lower_sycl(CompileRequest& request, const TargetSpec& spec,
                               DiagnosticLog& log) const {
  // Kernels are found in the preprocessed source; a source that does not preprocess gets
  // no entry points and fails in the frontend with the preprocessor's errors.
  const std::optional<Frontend::Preprocessed> preprocessed = frontend_->preprocess(request, spec);
  std::optional<CompileRequest> lowered = compiler_shared::SyclSource::lower(
      request, preprocessed ? std::string_view(preprocessed->text) : std::string_view(),
      [&request](const std::string& path) { return Frontend::shown_name(request, path); }, log);
  if (!lowered) return false;
  request = std::move(*lowered);
  return true;
}

}  // namespace plexus::clang_compiler
