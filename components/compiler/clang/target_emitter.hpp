// TargetEmitter: the back half of the pipeline, from one LLVM module to the bytes of a
// BinaryFormat: SPIR bitcode (as is), SPIR-V (write_spirv, in a child process), PTX and
// AMDGCN (link libclc with LinkOnlyNeeded, internalize, O3 so the builtins inline, then
// the target's TargetMachine), host bitcode (link the host device library, when one is configured).
//
// Ownership/thread-safety: immutable after construction except for the shared
// DeviceLibraries (itself thread-safe), which must outlive it; emit() may be called from
// many threads, each on its own module and context.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "device_libraries.hpp"
#include "diagnostic_log.hpp"
#include "target_spec.hpp"

namespace llvm {
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

// The module's bitcode, as written by llvm::WriteBitcodeToFile.
std::vector<std::byte> bitcode_of(const llvm::Module& module);

class TargetEmitter {
 public:
  // `host_device_library`: bitcode defining the work-item functions for llvm_bitcode
  // (empty: none yet; they stay external for the host backend to resolve).
  TargetEmitter(DeviceLibraries& libraries, std::string libclc_dir,
                std::string host_device_library);

  // Registers LLVM's targets once per process (thread-safe, idempotent).
  static void initialize_llvm_targets();
  // Whether libLLVM has the code generator `spec` needs; `why` says what is missing.
  static bool target_available(const TargetSpec& spec, std::string& why);

  // Whether the code generator knows spec.cpu (always true where no CPU is needed); an
  // error in the log, with the known ones, when not.
  static bool check_processor(const TargetSpec& spec, DiagnosticLog& log);

  // The bytes, or nullopt with errors in the log. `optimization_level` is the user's -O.
  std::optional<std::vector<std::byte>> emit(llvm::Module& module, const TargetSpec& spec,
                                             unsigned optimization_level, DiagnosticLog& log) const;

 private:
  bool link_library(llvm::Module& module, const std::string& path, DiagnosticLog& log) const;
  // Hook for the host backend's work-item library (get_global_id, barrier, ...).
  bool link_host_device_library(llvm::Module& module, DiagnosticLog& log) const;
  std::optional<std::vector<std::byte>> emit_native(llvm::Module& module, const TargetSpec& spec,
                                                    unsigned optimization_level,
                                                    DiagnosticLog& log) const;

  DeviceLibraries& libraries_;
  std::string libclc_dir_;
  std::string host_device_library_;
};

}  // namespace plexus::clang_compiler
