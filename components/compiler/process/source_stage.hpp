// SourceStage: OpenCL C / C++ for OpenCL / SYCL (lowered, sycl_source.hpp) to bitcode with clang-15 -cc1 as a child process:
// the source (named after source_name's file name, else kernel.cl / kernel.clcpp) and the
// virtual include files (relative names, sub-folders allowed) are written into the
// temporary directory; clang's diagnostics come back with the user's names.
//
// Thread-safety: stateless; works in the caller's temporary directory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "clang_output_parser.hpp"
#include "diagnostic_log.hpp"
#include "plexus/compiler.hpp"
#include "target_spec.hpp"
#include "temp_directory.hpp"

namespace plexus::process_compiler {

class SourceStage {
 public:
  // The bitcode (with `preprocess`: the preprocessed text, line markers kept), or nullopt
  // when the source did not compile (the log says why). Sets `names` (the source's path
  // in `dir` and the name it is shown under). clang stops after `max_errors` errors.
  static std::optional<std::string> compile(const CompileRequest& request,
                                            const compiler_shared::TargetSpec& spec,
                                            const std::string& clang,
                                            const std::string& resource_dir,
                                            std::int64_t max_errors,
                                            const TempDirectory& dir, PathNames& names,
                                            compiler_shared::DiagnosticLog& log,
                                            bool preprocess = false);
};

}  // namespace plexus::process_compiler
