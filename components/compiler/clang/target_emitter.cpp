#include "target_emitter.hpp"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <sstream>

#include "barrier_lowering.hpp"
#include "code_object_linker.hpp"
#include "device_code_checks.hpp"
#include "kernel_inspector.hpp"
#include "plexus/log.hpp"
#include "spirv_writer.hpp"

namespace plexus::clang_compiler {

namespace {

std::vector<std::byte> to_bytes(const char* data, std::size_t size) {
  std::vector<std::byte> bytes(size);
  if (size > 0) std::memcpy(bytes.data(), data, size);
  return bytes;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

llvm::OptimizationLevel pipeline_level(unsigned level) {
  switch (level) {
    case 0:
      return llvm::OptimizationLevel::O0;
    case 1:
      return llvm::OptimizationLevel::O1;
    case 2:
      return llvm::OptimizationLevel::O2;
    default:
      return llvm::OptimizationLevel::O3;
  }
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine, llvm::OptimizationLevel level) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(&machine);  // registers the target's own passes and analyses
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager passes = level == llvm::OptimizationLevel::O0
                                       ? builder.buildO0DefaultPipeline(level)
                                       : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, modules);
}

}  // namespace

std::vector<std::byte> bitcode_of(const llvm::Module& module) {
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::WriteBitcodeToFile(module, stream);
  return to_bytes(buffer.data(), buffer.size());
}

TargetEmitter::TargetEmitter(DeviceLibraries& libraries, std::string libclc_dir,
                             std::string host_device_library)
    : libraries_(libraries),
      libclc_dir_(std::move(libclc_dir)),
      host_device_library_(std::move(host_device_library)) {}

void TargetEmitter::initialize_llvm_targets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
}

bool TargetEmitter::target_available(const TargetSpec& spec, std::string& why) {
  if (spec.format != BinaryFormat::ptx && spec.format != BinaryFormat::amdgcn) return true;
  if (spec.format == BinaryFormat::amdgcn && !code_object_linker_available()) {
    why = "this build has no lld libraries to link AMDGCN code objects (install liblld-15-dev "
          "and rebuild)";
    return false;
  }
  initialize_llvm_targets();
  if (llvm::TargetRegistry::lookupTarget(spec.triple, why) != nullptr) return true;
  why = "the LLVM library has no code generator for " + spec.triple + " (" + why + ")";
  return false;
}

bool TargetEmitter::check_processor(const TargetSpec& spec, DiagnosticLog& log) {
  if (spec.cpu.empty() || (spec.format != BinaryFormat::ptx && spec.format != BinaryFormat::amdgcn))
    return true;
  initialize_llvm_targets();
  std::string why;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(spec.triple, why);
  if (!target) return true;  // reported by target_available()
  // Made without a CPU: an unknown one would print a warning on stderr.
  const std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(spec.triple, "", ""));
  if (!info || info->isCPUStringValid(spec.cpu)) return true;
  std::string message = "LLVM 15's " + std::string(target->getName()) +
                        " code generator does not know the processor '" + spec.cpu + "'";
  if (spec.format == BinaryFormat::ptx)
    message += "; it knows up to sm_86 (PTX for sm_80 runs on newer GPUs: the driver compiles it)";
  log.error(message);
  return false;
}

bool TargetEmitter::link_library(llvm::Module& module, const std::string& path,
                                 DiagnosticLog& log) const {
  std::unique_ptr<llvm::Module> library;
  if (!libraries_.subset_for(module, path, library, log)) return false;
  if (!library) return true;  // the module needs nothing from it
  // libclc's triples ("nvptx64--nvidiacl") name the same target: take the module's.
  library->setTargetTriple(module.getTargetTriple());
  library->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(library), llvm::Linker::Flags::LinkOnlyNeeded)) {
    log.error("linking the device library '" + path + "' failed");
    return false;
  }
  return true;
}

bool TargetEmitter::link_host_device_library(llvm::Module& module, DiagnosticLog& log) const {
  if (host_device_library_.empty()) return true;  // work-item functions stay external
  return link_library(module, host_device_library_, log);
}

std::optional<std::vector<std::byte>> TargetEmitter::emit(llvm::Module& module,
                                                          const TargetSpec& spec,
                                                          unsigned optimization_level,
                                                          DiagnosticLog& log) const {
  switch (spec.format) {
    case BinaryFormat::spir_bitcode:
      return bitcode_of(module);
    case BinaryFormat::spirv:
      return write_spirv(module, spec.spirv_version_limit, log);
    case BinaryFormat::llvm_bitcode:
      if (!link_host_device_library(module, log)) return std::nullopt;
      if (!host_device_library_.empty()) {
        if (const std::string missing =
                compiler_shared::unresolved_functions(module, BinaryFormat::llvm_bitcode);
            !missing.empty()) {
          log.error(compiler_shared::host_unresolved_message(missing));
          return std::nullopt;
        }
      }
      return bitcode_of(module);
    case BinaryFormat::ptx:
    case BinaryFormat::amdgcn:
      return emit_native(module, spec, optimization_level, log);
    default:
      break;
  }
  log.error("internal: no emitter for this binary format");
  return std::nullopt;
}

std::optional<std::vector<std::byte>> TargetEmitter::emit_native(llvm::Module& module,
                                                                 const TargetSpec& spec,
                                                                 unsigned optimization_level,
                                                                 DiagnosticLog& log) const {
  std::string why;
  initialize_llvm_targets();
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(spec.triple, why);
  if (!target) {
    log.error("no LLVM code generator for " + spec.triple + ": " + why);
    return std::nullopt;
  }
  std::string features;
  for (const std::string& feature : spec.features)
    features += (features.empty() ? "" : ",") + feature;
  const auto codegen_level =
      optimization_level == 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(spec.triple, spec.cpu, features, llvm::TargetOptions(),
                                  llvm::Reloc::PIC_, llvm::None, codegen_level));
  if (!machine) {
    log.error("cannot create the " + spec.triple + " code generator for '" + spec.cpu + "'");
    return std::nullopt;
  }
  module.setTargetTriple(spec.triple);
  module.setDataLayout(machine->createDataLayout());

  auto start = std::chrono::steady_clock::now();
  compiler_shared::BarrierLowering::lower_work_group_barrier(module);
  if (!spec.libclc_file.empty() && !link_library(module, libclc_dir_ + "/" + spec.libclc_file, log))
    return std::nullopt;
  const double link_ms = milliseconds_since(start);
  start = std::chrono::steady_clock::now();
  // Only the kernels stay visible, so the builtins inline and the rest is removed.
  llvm::internalizeModule(module, [](const llvm::GlobalValue& value) {
    const auto* function = llvm::dyn_cast<llvm::Function>(&value);
    return function != nullptr && KernelInspector::is_kernel(*function);
  });
  optimize(module, *machine,
           pipeline_level(optimization_level == 0 ? 0 : 3));  // O3 after the link
  const double optimize_ms = milliseconds_since(start);
  start = std::chrono::steady_clock::now();

  if (const std::string missing = compiler_shared::unresolved_functions(module, spec.format); !missing.empty()) {
    log.error(
        "the kernels call functions that neither they nor the device library define, so "
        "the " +
        std::string(to_string(spec.format)) + " code would not load: " + missing +
        " (libclc 15 has no printf, images or OpenCL 2.0 atomics for " + spec.triple + ")");
    return std::nullopt;
  }
  std::string problems;
  llvm::raw_string_ostream problem_stream(problems);
  if (llvm::verifyModule(module, &problem_stream)) {
    log.error("the linked module is not valid LLVM IR: " + problem_stream.str());
    return std::nullopt;
  }
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream stream(buffer);
  llvm::legacy::PassManager passes;
  const auto file_type =
      spec.format == BinaryFormat::ptx ? llvm::CGFT_AssemblyFile : llvm::CGFT_ObjectFile;
  if (machine->addPassesToEmitFile(passes, stream, nullptr, file_type)) {
    log.error("the " + spec.triple + " code generator cannot emit this file type");
    return std::nullopt;
  }
  passes.run(module);
  logger().debug(
      "compiler clang: {} libclc link {:.2f} ms, O3 {:.2f} ms, code generation {:.2f} ms",
      spec.triple, link_ms, optimize_ms, milliseconds_since(start));
  if (spec.format == BinaryFormat::amdgcn) {  // the relocatable object -> a code object
    start = std::chrono::steady_clock::now();
    auto linked = link_code_object(
        std::span(reinterpret_cast<const std::byte*>(buffer.data()), buffer.size()), log);
    logger().debug("compiler clang: lld {:.2f} ms", milliseconds_since(start));
    return linked;
  }
  return to_bytes(buffer.data(), buffer.size());
}

}  // namespace plexus::clang_compiler
