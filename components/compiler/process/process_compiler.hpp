// ProcessCompiler: the `compiler/process` component, the baseline the in-process
// compiler/clang is measured against. Each compile() writes the source and the virtual
// include files into a private temporary directory and runs the LLVM 15 tools as child
// processes (clang-15 -cc1 with the in-process frontend's flags; llvm-link-15 with libclc,
// opt-15 -O3 and llc-15 for PTX/AMDGCN, then ld.lld -shared for an AMDGCN code object;
// llvm-spirv-15 for SPIR-V; llvm-as-15 and llvm-spirv-15 -r for IR text and SPIR-V inputs), then reads the results back. Kernel
// properties and kernel_name selection are the shared ones (plexus_compiler_shared).
//
// Options ([compiler.process]): tools_dir (else PLEXUS_LLVM_TOOLS_DIR, else the LLVM 15
// binaries' directory found at build time), llvm_spirv (the llvm-spirv-15 used when
// tools_dir has none; else PLEXUS_LLVM_SPIRV, else the one found at build time),
// resource_dir (as compiler/clang), libclc_dir (as compiler/clang), host_device_library
// (bitcode linked into llvm_bitcode output; default as compiler/clang).
//
// Thread-safety: compile() may be called from many threads at once: each call has its own
// temporary directory and LLVMContext; the object is immutable after construction.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plexus/compiler.hpp"
#include "plexus/plugin_context.hpp"
#include "tool_runner.hpp"

namespace plexus::process_compiler {

class ProcessCompiler final : public Compiler {
 public:
  explicit ProcessCompiler(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~ProcessCompiler() override;

  std::vector<BinaryFormat> targets() const override;
  CompileResult compile(const CompileRequest& request) override;

 private:
  struct Settings;  // the [compiler.process] options, read once (read_settings)
  static Settings read_settings(const ComponentOptions& options);
  explicit ProcessCompiler(const Settings& settings);
  std::string resource_dir_;
  std::int64_t max_errors_;  // max_errors (ToolchainOptions)
  std::string libclc_dir_;
  std::string host_device_library_;
  ToolRunner tools_;
  bool bounds_checks_ = false;  // option checks = "bounds" (PLEXUS_KERNEL_CHECKS)
  bool cancel_points_ = false;  // option cancel = "work_group" (PLEXUS_KERNEL_CANCEL)
};

}  // namespace plexus::process_compiler
