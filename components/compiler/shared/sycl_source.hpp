// SyclSource: SYCL free-function kernel source (SourceLanguage::sycl) as the C++ for
// OpenCL that both compilers compile (compiler/clang in process, compiler/process with
// clang-15), so that they accept the same language and name the same kernels.
//
//   1. with_headers(): the request plus Plexus's SYCL device headers (sycl_include/,
//      embedded in the plugin) as virtual include files under `header_dir`; the compilers
//      put `<virtual dir>/header_dir` on the system include path (FrontendOptions).
//   2. The compiler preprocesses that request (in memory, or clang-15 -E).
//   3. lower(): finds the free-function kernels in the preprocessed text (the annotation
//      SYCL_EXT_ONEAPI_FUNCTION_PROPERTY leaves, the function's scope, name and parameter
//      count) and adds an OpenCL kernel entry point for every `extern "C"` kernel and every
//      registered name (CompileRequest::registered_names): pointers become global pointers,
//      work_group_memory a local pointer, scalars and structs stay. The entries are a
//      virtual header included at the end of the source, each under a #line naming the
//      kernel's own line, so errors about a kernel point at it.
//   4. The compiler compiles the lowered request as C++ for OpenCL 1.0 (-cl-std=clc++).
//   5. finish(): on the frontend's module, each entry takes its kernel's name (the
//      function it calls becomes internal and is renamed), printf becomes OpenCL's, the
//      annotations are dropped, work_group_static variables move into local memory
//      (sycl_work_group_static.hpp), a kernel that calls get_work_group_scratch_memory gets
//      a last __local parameter for it (sycl_work_group_scratch.hpp), and each kernel gets
//      its own copy of the local variables it uses (kernel_local_variables.hpp).
//
// Thread-safety: stateless (pure functions).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"

namespace llvm {
class Module;
}

namespace plexus::compiler_shared {

struct SyclKernelDeclaration {
  std::string scope;      // "ns::inner", empty at global scope
  std::string name;       // the function's name
  bool extern_c = false;
  bool is_template = false;
  bool single_task = false;  // single_task_kernel (else nd_range_kernel<N>)
  int parameters = 0;     // as counted in the declaration
  std::string file;       // as the preprocessor named it (line markers)
  unsigned line = 0;
};

class SyclSource {
 public:
  // The include directory (relative to the compiler's virtual directory) of the headers.
  static constexpr const char* header_dir = "__plexus_sycl";
  // The prefix of generated entry points before finish() renames them.
  static constexpr const char* entry_prefix = "__plexus_sycl_entry__";

  static CompileRequest with_headers(const CompileRequest& request);

  // How diagnostics name a file the preprocessor named `path` (the compiler's mapping).
  using ShownName = std::function<std::string(const std::string& path)>;

  // The kernels declared in `preprocessed` (with line markers); a declaration the scanner
  // cannot read, or a property that is neither nd_range_kernel<N> nor single_task_kernel,
  // is an error in `log` at its line.
  static std::vector<SyclKernelDeclaration> scan(std::string_view preprocessed,
                                                 const ShownName& shown, DiagnosticLog& log);

  // `request` (with_headers() of the user's) plus the entry points of the kernels in
  // `preprocessed` (its preprocessed text); nullopt (errors in `log`) when a registered name
  // names no kernel or the scan failed.
  static std::optional<CompileRequest> lower(const CompileRequest& request,
                                             std::string_view preprocessed,
                                             const ShownName& shown, DiagnosticLog& log);

  // Step 5 on the frontend's module (idempotent); false with errors in `log` when a
  // work_group_static cannot be placed in local memory.
  static bool finish(llvm::Module& module, DiagnosticLog& log);
};

// The embedded headers: (path under header_dir, content).
struct SyclHeaderFile {
  const char* path;
  const char* content;
};
const std::vector<SyclHeaderFile>& sycl_header_files();

}  // namespace plexus::compiler_shared
