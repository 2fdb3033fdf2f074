// plexus: the command-line tool. `plexus help` lists the commands.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "commands.hpp"
#include "plexus/error.hpp"
#include "plexus/version.hpp"

namespace {

constexpr const char* usage = R"(usage: plexus <command> [options]

Commands:
  info      the config in force, the components found and selected, and the devices
  plugins   list plugins on the search path without loading them
  compile   compile a kernel file to a device binary (SPIR-V, SPIR, PTX, AMDGCN, host)
  cache     inspect and maintain the persistent cache (stats, ls, show, verify, prune, clear)
  syclbin   dump, create or extract SYCLBIN files (dump FILE; create -o OUT ...)
  ab        run a program under several configs, alternately, and compare the runs
  conformance  check a plugin file against its kind's conformance suite
  worker    serve this node's devices to rank 0 of an MPI job (mpirun ... : plexus worker)
  help      show this help

Run `plexus help <command>` or `plexus <command> --help` for a command's options.
Exit status: 0 success, 1 failure, 2 a mistake in the command line.
Environment: PLEXUS_CONFIG, PLEXUS_PLUGIN_PATH, PLEXUS_LOG_LEVEL, PLEXUS_SCHEDULER,
PLEXUS_MEMORY, PLEXUS_CACHE, PLEXUS_COMPILER, PLEXUS_FUSION, PLEXUS_BACKENDS, PLEXUS_TRACE
(all of them: docs/configuration.md).
)";

using Command = int (*)(const std::vector<std::string>&);

}  // namespace

int main(int argc, char** argv) {
  const std::map<std::string, Command> commands = {
      {"info", &plexus::tool::info_command},
      {"plugins", &plexus::tool::plugins_command},
      {"compile", &plexus::tool::compile_command},
      {"cache", &plexus::tool::cache_command},
      {"syclbin", &plexus::tool::syclbin_command},
      {"ab", &plexus::tool::ab_command},
      {"conformance", &plexus::tool::conformance_command},
      {"worker", &plexus::tool::worker_command},
  };
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 2 && args[0] == "help" && commands.count(args[1])) {
    args = {args[1], "--help"};  // plexus help ab: ab's help
  } else if (args.size() >= 2 && args[0] == "help") {
    std::cerr << "plexus: no command '" << args[1] << "' to show help for\n\n" << usage;
    return 2;
  }
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << usage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::cout << "plexus " << PLEXUS_VERSION_STRING << '\n';
    return 0;
  }
  auto command = commands.find(args[0]);
  if (command == commands.end()) {
    std::cerr << "plexus: unknown command '" << args[0] << "'\n\n" << usage;
    return 2;
  }
  try {
    return command->second(std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const plexus::tool::usage_error& failure) {
    std::cerr << "plexus " << args[0] << ": " << failure.what() << " (plexus help " << args[0]
              << ")\n";
    return 2;
  } catch (const plexus::error& failure) {
    std::cerr << "plexus " << args[0] << ": error (" << plexus::to_string(failure.category())
              << "): " << failure.what() << '\n';
    return 1;
  } catch (const std::exception& failure) {
    std::cerr << "plexus " << args[0] << ": unexpected error: " << failure.what() << '\n';
    return 1;
  }
}
