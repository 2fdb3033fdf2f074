// The `plexus` tool's subcommands. Each takes its arguments (after the command name),
// prints to stdout, and returns the process exit code. Errors are plexus::error.
#pragma once

#include <string>
#include <vector>

namespace plexus::tool {

int info_command(const std::vector<std::string>& args);
int plugins_command(const std::vector<std::string>& args);
int compile_command(const std::vector<std::string>& args);
int cache_command(const std::vector<std::string>& args);
int syclbin_command(const std::vector<std::string>& args);
int ab_command(const std::vector<std::string>& args);
int conformance_command(const std::vector<std::string>& args);
int worker_command(const std::vector<std::string>& args);

}  // namespace plexus::tool
