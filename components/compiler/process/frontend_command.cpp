#include "frontend_command.hpp"

#include "frontend_options.hpp"

namespace plexus::process_compiler {

std::optional<std::vector<std::string>> FrontendCommand::build(
    const CompileRequest& request, const compiler_shared::TargetSpec& target,
    const FrontendPaths& paths, std::int64_t max_errors, compiler_shared::DiagnosticLog& log,
    bool preprocess) {
  std::optional<std::vector<std::string>> common = compiler_shared::FrontendOptions::arguments(
      request, target, paths.resource_dir, max_errors, log);
  if (!common) return std::nullopt;
  std::vector<std::string> args = {"-cc1", preprocess ? "-E" : "-emit-llvm-bc"};
  args.insert(args.end(), common->begin(), common->end());
  for (std::size_t i = 0; i < paths.include_dirs.size(); ++i) {
    // The temporary directory first, with SYCL's headers under it (FrontendOptions).
    const std::vector<std::string> includes =
        i == 0 ? compiler_shared::FrontendOptions::include_arguments(request, paths.include_dirs[0])
               : std::vector<std::string>{"-I", paths.include_dirs[i]};
    args.insert(args.end(), includes.begin(), includes.end());
  }
  args.insert(args.end(), {"-o", paths.output, paths.main_file});
  return args;
}

}  // namespace plexus::process_compiler
