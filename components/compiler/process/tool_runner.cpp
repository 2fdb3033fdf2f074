#include "tool_runner.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "plexus/error.hpp"

extern char** environ;

namespace plexus::process_compiler {

namespace {

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

// Closes a descriptor when it goes out of scope.
struct Descriptor {
  int fd = -1;
  ~Descriptor() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// posix_spawn's file actions and attributes, destroyed on every path.
struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
};

}  // namespace

ToolRunner::ToolRunner(std::string tools_dir, std::string spirv_fallback)
    : tools_dir_(std::move(tools_dir)), spirv_fallback_(std::move(spirv_fallback)) {}

std::string ToolRunner::find(const std::string& name) const {
  for (const std::string& file : {name + "-15", name}) {
    const std::string path = tools_dir_ + "/" + file;
    if (executable(path)) return path;
  }
  if (name == "llvm-spirv" && !spirv_fallback_.empty() && executable(spirv_fallback_))
    return spirv_fallback_;
  throw error(error_category::unsupported,
              "compiler 'process' needs the tool '" + name + "-15' (or '" + name +
                  "'), which is not in tools_dir '" + tools_dir_ +
                  "'; set `tools_dir` in [compiler.process] (or PLEXUS_LLVM_TOOLS_DIR) to the "
                  "directory of the LLVM 15 binaries (e.g. /usr/lib/llvm-15/bin)");
}

ToolResult ToolRunner::run(const std::string& path, const std::vector<std::string>& arguments) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw error(error_category::io,
                std::string("compiler 'process': pipe: ") + std::strerror(errno));
  Descriptor read_end{fds[0]}, write_end{fds[1]};

  FileActions file_actions;
  posix_spawn_file_actions_addopen(&file_actions.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&file_actions.actions, write_end.fd, 1);
  posix_spawn_file_actions_adddup2(&file_actions.actions, write_end.fd, 2);

  std::vector<char*> argv;
  argv.reserve(arguments.size() + 2);
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);

  pid_t child = -1;
  const int spawned =
      ::posix_spawn(&child, path.c_str(), &file_actions.actions, nullptr, argv.data(), environ);
  write_end.reset();  // the child holds the only write end now: EOF when it exits
  if (spawned != 0)
    throw error(error_category::unsupported, "compiler 'process': cannot start '" + path +
                                                 "': " + std::strerror(spawned) +
                                                 " (check `tools_dir` in [compiler.process])");

  ToolResult result;
  char buffer[4096];
  for (;;) {
    const ssize_t count = ::read(read_end.fd, buffer, sizeof buffer);
    if (count > 0) {
      result.output.append(buffer, static_cast<std::size_t>(count));
    } else if (count == 0 || errno != EINTR) {
      break;
    }
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.succeeded = WEXITSTATUS(status) == 0;
    result.status = "exit status " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    result.status = "killed by signal " + std::to_string(WTERMSIG(status));
  } else {
    result.status = "ended abnormally";
  }
  return result;
}

}  // namespace plexus::process_compiler
