// Frontend: OpenCL C / C++ for OpenCL source -> llvm::Module, in process, with Clang's
// CompilerInstance over an in-memory file system (the source and the virtual include
// files) overlaid on the real one (for the clang resource headers). No temporary files,
// no child processes. Every diagnostic, those about options included, goes to the log.
//
// preprocess() runs only the preprocessor over the same invocation and file system (so
// includes are resolved exactly as compile() resolves them), for the frontend cache key.
//
// SYCL sources that SyclPrefix allows are compiled and preprocessed with <sycl/sycl.hpp>
// precompiled (a Clang PCH built in memory, once per command line, and kept in
// PrecompiledHeaders; sycl_pch = false turns it off). The PCH is part of the arguments
// (-include-pch <its key>), so the frontend cache key of a source changes with it. With a
// FrontendCache, PCHs are also kept in the cache store (another process finds them there).
//
// SYCL sources (collectives_library.hpp) are compiled with the headers' collectives
// precompiled: a device library (bitcode) per command line, linked into the module
// compile() returns, after its O2, when that module calls it. The build made it for the
// default command lines (PrebuiltCollectives); for others it is built in memory from the same
// arguments when a module first calls it, and kept like the PCH (and in the cache store). Its
// key (a hash of all its bytes come from) is part of the preprocessed arguments, so of the
// frontend cache key. sycl_collectives = false turns it off.
//
// Both run on a thread of their own under FrontendLimits (frontend_limits.hpp): regular
// files only, size, token, time and nesting limits, so no input ends or hangs the process.
//
// Ownership/thread-safety: immutable after construction; compile() and preprocess() may be
// called from many threads at once, each compile() with its own LLVMContext.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "diagnostic_log.hpp"
#include "frontend_limits.hpp"
#include "plexus/compiler.hpp"
#include "prebuilt_collectives.hpp"
#include "target_spec.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace plexus::clang_compiler {

class FrontendCache;
class PrecompiledHeaders;
struct PrecompiledHeader;

class Frontend {
 public:
  // `cache` (may be null) keeps PCHs across processes too; it must outlive the Frontend.
  Frontend(std::string resource_dir, FrontendLimits limits, bool sycl_pch = true,
           const FrontendCache* cache = nullptr, bool sycl_collectives = true,
           PrebuiltCollectives prebuilt = {});
  ~Frontend();

  // How many PCHs of <sycl/sycl.hpp> were built since construction (tests, logs).
  std::size_t pch_builds() const;
  // How many precompiled collectives libraries were built since construction (tests, logs).
  std::size_t collectives_builds() const;

  struct Preprocessed {
    // The preprocessed source with every include resolved, comments dropped and line
    // markers kept (file names and line numbers, so a cached result's diagnostic locations
    // and debug info are those of the source that hits it).
    std::string text;
    // The frontend (-cc1) arguments compile() would use: the translated user options, the
    // target, the language, the resource directory and the main file's path.
    std::vector<std::string> arguments;
    // Every file the preprocessor read from disk (resource headers, includes), sorted; not
    // the source or the virtual include files.
    std::vector<std::string> disk_files;
  };
  // nullopt when the options or the preprocessor report an error (compile() will report
  // it to the user; nothing is logged here).
  std::optional<Preprocessed> preprocess(const CompileRequest& request,
                                         const TargetSpec& target) const;

  // The module, or nullptr when the source did not compile (the log says why).
  std::unique_ptr<llvm::Module> compile(const CompileRequest& request, const TargetSpec& target,
                                        llvm::LLVMContext& context, DiagnosticLog& log) const;

  // Where the source and the virtual include files live in the in-memory file system.
  static constexpr const char* virtual_dir = "/plexus-virtual";

  // How diagnostics name the file the frontend knows as `path` (the source as source_name
  // or its default, virtual include files by their names).
  static std::string shown_name(const CompileRequest& request, const std::string& path);

 private:
  struct Setup;
  // The source's path in the frontend's file system; `shown` gets the name diagnostics use.
  static std::string main_file_of(const CompileRequest& request, std::string& shown);
  std::optional<Setup> prepare(const CompileRequest& request, const TargetSpec& target,
                               DiagnosticLog& log) const;
  // compile() and preprocess() on the calling thread (the frontend thread).
  std::unique_ptr<llvm::Module> compile_here(const CompileRequest& request,
                                             const TargetSpec& target, llvm::LLVMContext& context,
                                             DiagnosticLog& log) const;
  std::optional<Preprocessed> preprocess_here(const CompileRequest& request,
                                              const TargetSpec& target) const;

  // The PCH for the frontend arguments `args` (no main file), built when none is kept;
  // nullptr when it cannot be built.
  std::shared_ptr<const PrecompiledHeader> precompiled_sycl(const std::vector<std::string>& args) const;
  std::shared_ptr<const PrecompiledHeader> build_pch(const std::string& key,
                                                     const std::vector<std::string>& args) const;

  // The key of the collectives library for `args` (the PCH's arguments, collectives_macro
  // among them) and `pch` (may be null): a hash of everything its bytes come from.
  static std::string collectives_key(const std::vector<std::string>& args,
                                     const std::shared_ptr<const PrecompiledHeader>& pch);
  // That library, built when none is kept; nullptr when it cannot be built.
  std::shared_ptr<const PrecompiledHeader> collectives_library(
      const std::string& key, const std::vector<std::string>& args,
      const std::shared_ptr<const PrecompiledHeader>& pch) const;
  std::shared_ptr<const PrecompiledHeader> build_collectives(
      const std::string& key, const std::vector<std::string>& args,
      const std::shared_ptr<const PrecompiledHeader>& pch) const;
  // The PCH or collectives library for `key` from the cache store (as `device`,
  // FrontendCache::pch_key), else `build` (stored). Callers keep it (PrecompiledHeaders).
  std::shared_ptr<const PrecompiledHeader> stored_or_built(
      const std::string& device, const std::string& key, const std::vector<std::string>& args,
      const std::function<std::shared_ptr<const PrecompiledHeader>()>& build) const;

  std::string resource_dir_;
  FrontendLimits limits_;
  std::unique_ptr<PrecompiledHeaders> pchs_;  // null: no PCH
  // The collectives libraries (PrecompiledHeader: their bitcode); null: none.
  std::unique_ptr<PrecompiledHeaders> collectives_;
  const FrontendCache* cache_;                // may be null
  PrebuiltCollectives prebuilt_;              // the build's collectives libraries
};

}  // namespace plexus::clang_compiler
