#include "process_compiler.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "bitcode_stage.hpp"
#include "clang_output_parser.hpp"
#include "device_code_checks.hpp"
#include "diagnostic_log.hpp"
#include "frontend_options.hpp"
#include "toolchain_options.hpp"
#include "native_backend.hpp"
#include "plexus/error.hpp"
#include "plexus/log.hpp"
#include "source_stage.hpp"
#include "spirv_version.hpp"
#include "sycl_source.hpp"
#include "target_spec.hpp"
#include "temp_directory.hpp"
#include "tool_runner.hpp"
#include "tool_step.hpp"

namespace plexus::process_compiler {

namespace {

using compiler_shared::DiagnosticLog;
using compiler_shared::TargetSpec;

CompileResult finish(CompileResult result, DiagnosticLog& log) {
  result.diagnostics = log.take_diagnostics();
  result.log = log.take_text();
  return result;
}

// SPIR-V starts with the magic number 0x07230203, in either byte order.
bool has_spirv_magic(const std::string& bytes) {
  if (bytes.size() < 20 || bytes.size() % 4 != 0) return false;
  const auto byte = [&bytes](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  return (byte(0) == 0x03 && byte(1) == 0x02 && byte(2) == 0x23 && byte(3) == 0x07) ||
         (byte(0) == 0x07 && byte(1) == 0x23 && byte(2) == 0x02 && byte(3) == 0x03);
}

}  // namespace

// [compiler.process]: every option the component reads (process_compiler.hpp).
struct ProcessCompiler::Settings {
  compiler_shared::ToolchainOptions toolchain;
  std::string tools_dir;
  std::string llvm_spirv;
};

ProcessCompiler::Settings ProcessCompiler::read_settings(const ComponentOptions& options) {
  Settings settings;
  settings.toolchain = compiler_shared::read_toolchain_options(options, PLEXUS_CLANG_RESOURCE_DIR,
                                                               PLEXUS_LIBCLC_DIR);
  settings.tools_dir =
      options.get_or_env("tools_dir", "PLEXUS_LLVM_TOOLS_DIR", PLEXUS_LLVM_TOOLS_DIR);
  // llvm-spirv-15 is not among the LLVM binaries on Debian; used when tools_dir lacks it.
  settings.llvm_spirv =
      options.get_or_env("llvm_spirv", "PLEXUS_LLVM_SPIRV", PLEXUS_LLVM_SPIRV_TOOL);
  return settings;
}

void ProcessCompiler::check_options(const ComponentOptions& options) { read_settings(options); }

ProcessCompiler::ProcessCompiler(PluginContext& context)
    : ProcessCompiler(read_settings(context.options)) {}

ProcessCompiler::ProcessCompiler(const Settings& settings)
    : resource_dir_(settings.toolchain.resource_dir),
      max_errors_(settings.toolchain.max_errors),
      libclc_dir_(settings.toolchain.libclc_dir),
      host_device_library_(settings.toolchain.host_device_library),
      tools_(settings.tools_dir, settings.llvm_spirv) {
  bounds_checks_ = settings.toolchain.bounds_checks;
  cancel_points_ = settings.toolchain.cancel_points;
  logger().debug("compiler process: tools_dir {}, resource_dir {}, libclc_dir {}",
                 tools_.tools_dir(), resource_dir_, libclc_dir_);
}

ProcessCompiler::~ProcessCompiler() = default;

std::vector<BinaryFormat> ProcessCompiler::targets() const {
  return {BinaryFormat::spirv, BinaryFormat::spir_bitcode, BinaryFormat::ptx,
          BinaryFormat::llvm_bitcode, BinaryFormat::amdgcn};
}

CompileResult ProcessCompiler::compile(const CompileRequest& request) {
  const TargetSpec spec =
      compiler_shared::target_spec_for(request.target, request.target_architecture, "process");
  // emit_ir stops after the staged bitcode: no back-end tool runs.
  const bool native = !request.emit_ir &&
                      (spec.format == BinaryFormat::ptx || spec.format == BinaryFormat::amdgcn);
  const bool host_link = !request.emit_ir && spec.format == BinaryFormat::llvm_bitcode &&
                         !host_device_library_.empty();
  // Every tool this request needs, before any work: a missing one is `unsupported`.
  const std::string clang =
      compiler_shared::FrontendOptions::is_source(request.language) ? tools_.find("clang") : "";
  const std::string assembler =
      request.language == SourceLanguage::llvm_ir_text ? tools_.find("llvm-as") : "";
  const std::string translator =
      request.language == SourceLanguage::spirv ||
              (spec.format == BinaryFormat::spirv && !request.emit_ir)
          ? tools_.find("llvm-spirv")
          : "";
  const std::string linker = native || host_link ? tools_.find("llvm-link") : "";
  const std::string optimizer = native ? tools_.find("opt") : "";
  const std::string code_generator = native ? tools_.find("llc") : "";
  const std::string object_linker =
      native && spec.format == BinaryFormat::amdgcn ? tools_.find("ld.lld") : "";

  CompileResult result;
  result.format = request.target;
  DiagnosticLog log;
  if (request.source.empty()) {
    log.error(compiler_shared::FrontendOptions::is_source(request.language)
                  ? "the kernel source is empty: nothing to compile"
                  : "the input is empty: nothing to compile");
    return finish(std::move(result), log);
  }
  if (compiler_shared::FrontendOptions::is_source(request.language) &&
      !std::filesystem::exists(resource_dir_ + "/include/opencl-c-base.h")) {
    log.error("the clang resource directory '" + resource_dir_ +
              "' has no include/opencl-c-base.h; set `resource_dir` in [compiler.process] or "
              "PLEXUS_CLANG_RESOURCE_DIR (clang-15 -print-resource-dir)");
    return finish(std::move(result), log);
  }

  const auto start = std::chrono::steady_clock::now();
  TempDirectory dir;
  PathNames names{dir.path(), dir.file("input"), "input"};
  std::optional<std::string> bitcode;
  switch (request.language) {
    case SourceLanguage::opencl_c:
    case SourceLanguage::cpp_for_opencl:
      bitcode = SourceStage::compile(request, spec, clang, resource_dir_, max_errors_, dir, names,
                                     log);
      break;
    case SourceLanguage::sycl: {
      // The kernels' entry points from the preprocessed source (clang-15 -E), as
      // compiler/clang does in process (SyclSource); then the lowered source to bitcode.
      CompileRequest headers = compiler_shared::SyclSource::with_headers(request);
      compiler_shared::DiagnosticLog preprocessor_log;  // the compile reports these again
      const std::optional<std::string> text = SourceStage::compile(
          headers, spec, clang, resource_dir_, max_errors_, dir, names, preprocessor_log, true);
      const std::optional<CompileRequest> lowered = compiler_shared::SyclSource::lower(
          headers, text ? std::string_view(*text) : std::string_view(),
          [&names](const std::string& path) { return names.name_of(path); }, log);
      if (lowered)
        bitcode = SourceStage::compile(*lowered, spec, clang, resource_dir_, max_errors_, dir,
                                       names, log);
      break;
    }
    case SourceLanguage::llvm_bitcode:
      bitcode = request.source;
      break;
    case SourceLanguage::llvm_ir_text: {
      names = PathNames{dir.path(), dir.file("input.ll"), "input.ll"};
      if (!dir.write("input.ll", request.source)) break;
      const ToolResult assembled =
          ToolRunner::run(assembler, {dir.file("input.ll"), "-o", dir.file("input.bc")});
      if (!assembled.succeeded) {
        ClangOutputParser::parse(assembled.output, names, log);  // "input.ll:2:10: error: ..."
        if (!log.has_errors())
          log.error(ToolStep::failure(assembler, assembled.status, assembled.output, names));
      } else if (std::string bytes; dir.read("input.bc", bytes)) {
        bitcode = std::move(bytes);
      }
      break;
    }
    case SourceLanguage::spirv:
      if (!has_spirv_magic(request.source)) {
        log.error("the input is not a SPIR-V module (no SPIR-V magic number)");
        break;
      }
      if (dir.write("input", request.source) &&
          ToolStep::run(translator, {"-r", dir.file("input"), "-o", dir.file("input.bc")}, names,
                        log))
        if (std::string bytes; dir.read("input.bc", bytes)) bitcode = std::move(bytes);
      break;
  }
  if (!bitcode || log.has_errors()) {
    if (!log.has_errors()) log.error("the input could not be read");
    return finish(std::move(result), log);
  }
  std::optional<StagedBitcode> staged = BitcodeStage::prepare(
      *bitcode, request, spec, compiler_shared::FrontendOptions::is_source(request.language),
      bounds_checks_, cancel_points_, log);
  if (!staged || log.has_errors()) return finish(std::move(result), log);
  result.kernels = std::move(staged->kernels);
  const auto frontend_done = std::chrono::steady_clock::now();

  std::string binary;
  const std::string staged_file = dir.file("staged.bc");
  const std::string output_file = dir.file("output");
  if (request.emit_ir) {
    binary = std::move(staged->bitcode);
    result.format = BinaryFormat::llvm_bitcode;
  } else if (spec.format == BinaryFormat::spir_bitcode ||
             (spec.format == BinaryFormat::llvm_bitcode && !host_link)) {
    binary = std::move(staged->bitcode);
  } else {
    if (!dir.write("staged.bc", staged->bitcode)) {
      log.error("cannot write bitcode into the temporary directory");
      return finish(std::move(result), log);
    }
    bool ok = false;
    if (spec.format == BinaryFormat::spirv) {
      // At the lowest SPIR-V version that works, up to the target's, as compiler/clang.
      const auto translate = [&](std::uint32_t max_version) {
        const ToolResult run = ToolRunner::run(
            translator, {"--spirv-max-version=" + compiler_shared::spirv_version_name(max_version),
                         staged_file, "-o", output_file});
        compiler_shared::SpirvAttempt attempt;
        attempt.succeeded = run.succeeded && dir.read("output", attempt.spirv);
        if (!attempt.succeeded)
          attempt.failure = ToolStep::failure(translator, run.status, run.output, names);
        return attempt;
      };
      const std::optional<std::string> spirv = compiler_shared::translate_at_lowest_version(
          spec.spirv_version_limit, translate, log);
      ok = spirv.has_value();
    } else if (host_link) {
      ok = ToolStep::run(linker,
                         {"--only-needed", staged_file, host_device_library_, "-o", output_file},
                         names, log);
    } else {
      ok = NativeBackend::emit({linker, optimizer, code_generator, object_linker}, spec, request, result.kernels,
                               libclc_dir_, dir, "staged.bc", "output", names, log);
    }
    if (!ok || log.has_errors() || !dir.read("output", binary)) {
      if (!log.has_errors()) log.error("the tools wrote no output");
      return finish(std::move(result), log);
    }
    if (host_link) {
      if (const std::string missing =
              BitcodeStage::unresolved_functions(binary, BinaryFormat::llvm_bitcode, log);
          !missing.empty() || log.has_errors()) {
        if (!missing.empty()) log.error(compiler_shared::host_unresolved_message(missing));
        return finish(std::move(result), log);
      }
    }
  }
  using milliseconds = std::chrono::duration<double, std::milli>;
  logger().debug("compiler process: {}: frontend/input {:.2f} ms, back end {:.2f} ms",
                 to_string(request.target), milliseconds(frontend_done - start).count(),
                 milliseconds(std::chrono::steady_clock::now() - frontend_done).count());
  result.binary.resize(binary.size());
  if (!binary.empty()) std::memcpy(result.binary.data(), binary.data(), binary.size());
  result.succeeded = true;
  return finish(std::move(result), log);
}

}  // namespace plexus::process_compiler
