// ClangCompiler: the `compiler/clang` component. OpenCL C (1.2-3.0), C++ for OpenCL 2021,
// SYCL free-function kernels (sycl_source.hpp), LLVM bitcode, LLVM IR text and SPIR-V in; SPIR-V, SPIR bitcode (spir64), PTX, host LLVM
// bitcode and AMDGCN objects out, all in process with the shared libLLVM-15/libclang-cpp.
//
// Options ([compiler.clang]): resource_dir (the clang resource directory, default
// PLEXUS_CLANG_RESOURCE_DIR or the build's LLVM), libclc_dir (default PLEXUS_LIBCLC_DIR or
// /usr/lib/clc), host_device_library (bitcode linked into llvm_bitcode output; default
// PLEXUS_HOST_DEVICE_LIBRARY, else the host backend's library in the build tree, else the
// installed one; "" links none), frontend_cache (bool, default true: reuse frontend results and binaries through
// the configured cache store; nothing is cached without one), binary_cache (bool, default
// true; false keeps only the frontend level).
//
// Thread-safety: compile() may be called from many threads at once: each call has its own
// LLVMContext, CompilerInstance and TargetMachine; the only shared state is the cache of
// device library bytes (locked) and the cache store (thread-safe). Ownership: holds no
// LLVM object between calls.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "plexus/plugin_context.hpp"
#include "target_spec.hpp"

namespace plexus::clang_compiler {

class DeviceLibraries;
class Frontend;
class FrontendCache;
class DirectCache;
class TargetEmitter;

class ClangCompiler final : public Compiler {
 public:
  explicit ClangCompiler(PluginContext& context);
  // Reads the options as the constructor does (plugin.hpp): for a table not selected.
  static void check_options(const ComponentOptions& options);
  ~ClangCompiler() override;

  std::vector<BinaryFormat> targets() const override;
  CompileResult compile(const CompileRequest& request) override;

  const std::string& resource_dir() const { return resource_dir_; }
  const std::string& libclc_dir() const { return libclc_dir_; }

 private:
  struct Settings;  // the [compiler.clang] options, read once (read_settings)
  static Settings read_settings(const ComponentOptions& options);
  ClangCompiler(PluginContext& context, const Settings& settings);
  // SYCL source: `request` (SyclSource::with_headers of the user's) gets its kernels' entry
  // points; false (errors in `log`) when they cannot be generated.
  bool lower_sycl(CompileRequest& request, const TargetSpec& spec, DiagnosticLog& log) const;

  std::string resource_dir_;
  std::string libclc_dir_;
  std::string host_device_library_;
  std::unique_ptr<DeviceLibraries> libraries_;
  std::unique_ptr<Frontend> frontend_;
  std::unique_ptr<TargetEmitter> emitter_;
  std::unique_ptr<FrontendCache> cache_;  // nullptr: no store configured, or turned off
  bool binary_cache_ = true;              // option binary_cache: keep finished binaries too
  bool bounds_checks_ = false;            // option checks = "bounds" (PLEXUS_KERNEL_CHECKS)
  bool cancel_points_ = false;            // option cancel = "work_group" (PLEXUS_KERNEL_CANCEL)
  std::unique_ptr<DirectCache> direct_;   // option direct_cache: hits without preprocessing
};

}  // namespace plexus::clang_compiler
