#include "native_backend.hpp"

#include <filesystem>

#include "bitcode_stage.hpp"
#include "frontend_options.hpp"
#include "frontend_command.hpp"
#include "tool_step.hpp"

namespace plexus::process_compiler {

namespace {

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

}  // namespace

bool NativeBackend::emit(const NativeTools& tools, const compiler_shared::TargetSpec& spec,
                         const CompileRequest& request, const std::vector<KernelInfo>& kernels,
                         const std::string& libclc_dir, const TempDirectory& dir,
                         const std::string& input, const std::string& output,
                         const PathNames& names, compiler_shared::DiagnosticLog& log) {
  const std::string library = libclc_dir + "/" + spec.libclc_file;
  if (!std::filesystem::exists(library)) {
    log.error("the device library '" + library +
              "' does not exist; set `libclc_dir` in [compiler.process] or PLEXUS_LIBCLC_DIR");
    return false;
  }
  const unsigned level = compiler_shared::FrontendOptions::optimization_level(request);
  std::vector<std::string> names_kept;
  for (const KernelInfo& kernel : kernels) names_kept.push_back(kernel.name);
  std::string llc_output;
  bool ok = ToolStep::run(tools.linker,
                          {"--only-needed", dir.file(input), library, "-o", dir.file("linked.bc")},
                          names, log) &&
            // Only the kernels stay visible, so the builtins inline and the rest goes.
            ToolStep::run(
                tools.optimizer,
                {level == 0 ? "-passes=internalize,default<O0>" : "-passes=internalize,default<O3>",
                 "-internalize-public-api-list=" + joined(names_kept, ","), dir.file("linked.bc"),
                 "-o", dir.file("optimized.bc")},
                names, log);
  std::string optimized;
  if (ok && dir.read("optimized.bc", optimized)) {
    if (const std::string missing = BitcodeStage::unresolved_functions(optimized, spec.format, log);
        !missing.empty()) {
      log.error(
          "the kernels call functions that neither they nor the device library "
          "define, so the " +
          std::string(to_string(spec.format)) + " code would not load: " + missing +
          " (libclc 15 has no printf, images or OpenCL 2.0 atomics for " + spec.triple + ")");
      ok = false;
    }
  }
  if (ok && !log.has_errors()) {
    std::vector<std::string> arguments = {level == 0 ? "-O0" : "-O3", "-mtriple=" + spec.triple,
                                          "-mcpu=" + spec.cpu, "-relocation-model=pic"};
    if (!spec.features.empty()) arguments.push_back("-mattr=" + joined(spec.features, ","));
    if (spec.format == BinaryFormat::amdgcn) arguments.push_back("-filetype=obj");
    if (spec.format == BinaryFormat::ptx) arguments.push_back("--asm-verbose=false");
    const bool amdgcn = spec.format == BinaryFormat::amdgcn;
    arguments.insert(arguments.end(),
                     {dir.file("optimized.bc"), "-o", dir.file(amdgcn ? "object.o" : output)});
    ok = ToolStep::run(tools.code_generator, arguments, names, log, &llc_output);
    // llc only warns about a processor it does not know, and then ignores it.
    if (ok && llc_output.find("is not a recognized processor") != std::string::npos) {
      log.error("LLVM 15's llc-15 does not know the processor '" + spec.cpu + "'" +
                (spec.format == BinaryFormat::ptx
                     ? "; it knows up to sm_86 (PTX for sm_80 runs on newer GPUs: the driver "
                       "compiles it)"
                     : ""));
      ok = false;
    }
    // The relocatable object -> a loadable code object (kernel descriptors, metadata notes).
    if (ok && amdgcn)
      ok = ToolStep::run(tools.object_linker,
                         {"-shared", "--no-undefined", dir.file("object.o"), "-o", dir.file(output)},
                         names, log);
  }
  return ok;
}

}  // namespace plexus::process_compiler
