// ToolRunner: finds the LLVM 15 tools (clang-15, llvm-link-15, opt-15, llc-15, llvm-as-15,
// llvm-spirv-15) and runs them as child processes with posix_spawn: an argv array, no
// shell, stdin from /dev/null, stdout and stderr captured together.
//
// Ownership/thread-safety: immutable after construction; run() may be called from many
// threads at once (the pipes are close-on-exec, so no other child inherits them).
#pragma once

#include <string>
#include <vector>

namespace plexus::process_compiler {

struct ToolResult {
  bool succeeded = false;  // exited with status 0
  std::string status;      // "exit status 1", "killed by signal 6"
  std::string output;      // stdout and stderr, interleaved as written
};

class ToolRunner {
 public:
  // `tools_dir`: where clang-15 & co. live; `spirv_fallback`: the llvm-spirv-15 to use
  // when tools_dir has none (Debian puts it in /usr/bin, not /usr/lib/llvm-15/bin).
  ToolRunner(std::string tools_dir, std::string spirv_fallback);

  // The path of `name` ("clang", "llvm-link", ...) as `name`-15 or `name`; throws
  // plexus::error(unsupported) naming the tool and the tools_dir option when missing.
  std::string find(const std::string& name) const;

  static ToolResult run(const std::string& path, const std::vector<std::string>& arguments);

  const std::string& tools_dir() const { return tools_dir_; }

 private:
  std::string tools_dir_;
  std::string spirv_fallback_;
};

}  // namespace plexus::process_compiler
