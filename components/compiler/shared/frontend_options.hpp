// FrontendOptions: the clang -cc1 arguments both compiler components give the frontend
// for one source (compiler/clang in process, compiler/process on a command line), so the
// two compile the same thing: triple, language, resource directory, the -O level
// (-cl-opt-disable: -O0; else the user's last -O, else -O2), target CPU and
// features, pointer mode, the user's options (split like a shell would; options that would
// take the target, the language, the output or LLVM's process-wide command line away are
// refused), the OpenCL header flags, C++ for OpenCL's default -cl-std and the error limit
// (max_errors: -ferror-limit, so that both stop after as many errors). SYCL source
// (sycl_source.hpp) is C++ for OpenCL 1.0 (OpenCL 2.0's generic address space on every
// target) with SYCL's device macros; a -cl-std of the user's is refused there.
//
// Thread-safety: stateless (pure functions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"

namespace plexus::compiler_shared {

class FrontendOptions {
 public:
  // The arguments up to, not including, include directories, outputs and the input file;
  // nullopt (errors in `log`) when the user's options are refused. The frontend stops after
  // `max_errors` errors (ToolchainOptions::max_errors).
  static std::optional<std::vector<std::string>> arguments(const CompileRequest& request,
                                                           const TargetSpec& target,
                                                           const std::string& resource_dir,
                                                           std::int64_t max_errors,
                                                           DiagnosticLog& log);

  // The message of the frontend's fatal error once it reached max_errors, as both
  // components show it: what happened and the option of `component` ("compiler.clang")
  // that sets the limit. clang's own ("too many errors emitted, stopping now
  // [-ferror-limit=]") names an option the user cannot pass.
  static std::string too_many_errors(const std::string& component, std::int64_t max_errors);
  // Whether `message` is clang's text of that fatal error.
  static bool is_too_many_errors(const std::string& message);

  // The user's options as tokens ("-DA=1 -DB" is two; quotes keep spaces together).
  static std::vector<std::string> user_tokens(const CompileRequest& request);

  // The -O level the user's options ask for (0..3; 2 when none is given).
  static unsigned optimization_level(const CompileRequest& request);

  // The include arguments for a source whose virtual include files are in `virtual_dir`:
  // SYCL's headers on the system include path (sycl only), then `virtual_dir` itself.
  static std::vector<std::string> include_arguments(const CompileRequest& request,
                                                    const std::string& virtual_dir);

  // Whether the language goes through the frontend (OpenCL C, C++ for OpenCL, SYCL), as
  // opposed to IR inputs (LLVM bitcode, LLVM IR text, SPIR-V).
  static bool is_source(SourceLanguage language) {
    return language == SourceLanguage::opencl_c || language == SourceLanguage::cpp_for_opencl ||
           language == SourceLanguage::sycl;
  }

  // The file name a source is shown under when the request names none.
  static const char* default_source_name(SourceLanguage language) {
    return language == SourceLanguage::sycl             ? "kernel.cpp"
           : language == SourceLanguage::cpp_for_opencl ? "kernel.clcpp"
                                                        : "kernel.cl";
  }
};

}  // namespace plexus::compiler_shared
