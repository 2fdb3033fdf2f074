#include "source_stage.hpp"

#include <filesystem>
#include <map>

#include "frontend_command.hpp"
#include "frontend_options.hpp"
#include "tool_runner.hpp"
#include "tool_step.hpp"

namespace plexus::process_compiler {

namespace {

// Whether `name` is a relative path that stays inside the directory.
bool safe_relative(const std::string& name) {
  if (name.empty() || name.front() == '/') return false;
  for (const auto& part : std::filesystem::path(name))
    if (part == "..") return false;
  return true;
}

}  // namespace

std::optional<std::string> SourceStage::compile(const CompileRequest& request,
                                                const compiler_shared::TargetSpec& spec,
                                                const std::string& clang,
                                                const std::string& resource_dir,
                                                std::int64_t max_errors,
                                                const TempDirectory& dir, PathNames& names,
                                                compiler_shared::DiagnosticLog& log,
                                                bool preprocess) {
  const char* default_name =
      compiler_shared::FrontendOptions::default_source_name(request.language);
  names.shown = request.source_name.empty() ? default_name : request.source_name;
  std::string file_name = std::filesystem::path(names.shown).filename().string();
  if (file_name.empty() || file_name == "." || file_name == "..") file_name = default_name;
  names.main_file = dir.file(file_name);

  std::map<std::string, const std::string*> written;
  for (const VirtualFile& file : request.includes) {
    auto [at, fresh] = written.emplace(file.name, &file.content);
    if (!safe_relative(file.name) || file.name == file_name ||
        (!fresh && *at->second != file.content)) {
      log.error("the virtual include file '" + file.name +
                "' has an empty or invalid name (compiler 'process' takes relative names "
                "without '..'), or is given twice with different contents");
      return std::nullopt;
    }
    if (fresh && !dir.write(file.name, file.content)) {
      log.error("cannot write the virtual include file '" + file.name +
                "' into the temporary directory");
      return std::nullopt;
    }
  }
  if (!dir.write(file_name, request.source)) {
    log.error("cannot write the source into the temporary directory");
    return std::nullopt;
  }

  FrontendPaths paths;
  paths.resource_dir = resource_dir;
  paths.main_file = names.main_file;
  const char* output = preprocess ? "frontend.ii" : "frontend.bc";
  paths.output = dir.file(output);
  paths.include_dirs = {dir.path()};
  if (names.shown.find('/') != std::string::npos) {
    std::error_code ignored;
    const std::filesystem::path absolute = std::filesystem::absolute(names.shown, ignored);
    paths.include_dirs.push_back(absolute.lexically_normal().parent_path().string());
  }
  std::optional<std::vector<std::string>> arguments =
      FrontendCommand::build(request, spec, paths, max_errors, log, preprocess);
  if (!arguments) return std::nullopt;

  const ToolResult result = ToolRunner::run(clang, *arguments);
  ClangOutputParser::parse(
      result.output, names, log,
      compiler_shared::FrontendOptions::too_many_errors("compiler.process", max_errors));
  if (!result.succeeded) {
    if (!log.has_errors()) log.error(ToolStep::failure(clang, result.status, result.output, names));
    return std::nullopt;
  }
  if (log.has_errors()) return std::nullopt;
  std::string bitcode;
  if (!dir.read(output, bitcode)) {
    log.error(preprocess ? "clang-15 wrote no preprocessed source" : "clang-15 wrote no bitcode");
    return std::nullopt;
  }
  return bitcode;
}

}  // namespace plexus::process_compiler
