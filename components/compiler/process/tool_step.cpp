#include "tool_step.hpp"

#include <filesystem>

#include "tool_runner.hpp"

namespace plexus::process_compiler {

std::string ToolStep::failure(const std::string& tool, const std::string& status,
                              const std::string& output, const PathNames& names) {
  std::string message =
      std::filesystem::path(tool).filename().string() + " failed (" + status + ")";
  std::string text = names.replace(output);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (!text.empty()) message += ": " + text;
  return message;
}

bool ToolStep::run(const std::string& tool, const std::vector<std::string>& arguments,
                   const PathNames& names, compiler_shared::DiagnosticLog& log,
                   std::string* output) {
  ToolResult result = ToolRunner::run(tool, arguments);
  if (output) *output = result.output;
  if (result.succeeded) return true;
  log.error(failure(tool, result.status, result.output, names));
  return false;
}

}  // namespace plexus::process_compiler
