#include "clang_compiler.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <chrono>
#include <cstdlib>

#include "device_libraries.hpp"
#include "diagnostic_log.hpp"
#include "frontend.hpp"
#include "input_reader.hpp"
#include "kernel_inspector.hpp"
#include "kernel_selector.hpp"
#include "llvm_diagnostic_handler.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "target_emitter.hpp"
#include "target_spec.hpp"

namespace plexus::clang_compiler {

namespace {

// Option, then environment variable, then the path found when this plugin was built.
std::string configured_path(const ComponentOptions& options, const char* key, const char* variable,
                            const char* built_in) {
  if (auto value = options.find<std::string>(key)) return *value;
  if (const char* value = std::getenv(variable); value && *value) return value;
  return built_in;
}

bool is_source(SourceLanguage language) {
  return language == SourceLanguage::opencl_c || language == SourceLanguage::cpp_for_opencl;
}

CompileResult finish(CompileResult result, DiagnosticLog& log) {
  result.diagnostics = log.take_diagnostics();
  result.log = log.take_text();
  return result;
}

}  // namespace

ClangCompiler::ClangCompiler(PluginContext& context)
    : resource_dir_(configured_path(context.options, "resource_dir", "PLEXUS_CLANG_RESOURCE_DIR",
                                    PLEXUS_CLANG_RESOURCE_DIR)),
      libclc_dir_(
          configured_path(context.options, "libclc_dir", "PLEXUS_LIBCLC_DIR", PLEXUS_LIBCLC_DIR)),
      libraries_(std::make_unique<DeviceLibraries>()),
      frontend_(std::make_unique<Frontend>(resource_dir_)),
      emitter_(std::make_unique<TargetEmitter>(
          *libraries_, libclc_dir_, context.options.get<std::string>("host_device_library", ""))) {
  TargetEmitter::initialize_llvm_targets();
  logger().debug("compiler clang: resource_dir {}, libclc_dir {}", resource_dir_, libclc_dir_);
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

CompileResult ClangCompiler::compile(const CompileRequest& request) {
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
    log.error(is_source(request.language) ? "the kernel source is empty: nothing to compile"
                                          : "the input is empty: nothing to compile");
    return finish(std::move(result), log);
  }

  const auto start = std::chrono::steady_clock::now();
  llvm::LLVMContext context;
  context.setDiagnosticHandler(std::make_unique<LlvmDiagnosticHandler>(log));
  std::unique_ptr<llvm::Module> module;
  if (is_source(request.language)) {
    module = frontend_->compile(request, spec, context, log);
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
  if (!module || log.has_errors()) return finish(std::move(result), log);

  if (!request.kernel_name.empty() && !KernelSelector::keep_only(*module, request.kernel_name, log))
    return finish(std::move(result), log);
  const auto frontend_done = std::chrono::steady_clock::now();
  result.kernels = KernelInspector::inspect(*module);
  std::optional<std::vector<std::byte>> binary =
      emitter_->emit(*module, spec, Frontend::optimization_level(request), log);
  module.reset();  // before the context and the log it reports to
  using milliseconds = std::chrono::duration<double, std::milli>;
  logger().debug("compiler clang: {}: frontend/input {:.2f} ms, back end {:.2f} ms",
                 to_string(request.target), milliseconds(frontend_done - start).count(),
                 milliseconds(std::chrono::steady_clock::now() - frontend_done).count());
  if (!binary || log.has_errors()) return finish(std::move(result), log);
  result.binary = std::move(*binary);
  result.succeeded = true;
  return finish(std::move(result), log);
}

}  // namespace plexus::clang_compiler
