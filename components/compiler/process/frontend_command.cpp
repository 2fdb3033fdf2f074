#include "frontend_command.hpp"

#include "frontend_options.hpp"

namespace plexus::process_compiler {

std::optional<std::vector<std::string>> FrontendCommand::build(
    const CompileRequest& request, const compiler_shared::TargetSpec& target,
    const FrontendPaths& paths, compiler_shared::DiagnosticLog& log) {
  std::optional<std::vector<std::string>> common =
      compiler_shared::FrontendOptions::arguments(request, target, paths.resource_dir, log);
  if (!common) return std::nullopt;
  std::vector<std::string> args = {"-cc1", "-emit-llvm-bc"};
  args.insert(args.end(), common->begin(), common->end());
  for (const std::string& dir : paths.include_dirs) args.insert(args.end(), {"-I", dir});
  args.insert(args.end(), {"-o", paths.output, paths.main_file});
  return args;
}

}  // namespace plexus::process_compiler
