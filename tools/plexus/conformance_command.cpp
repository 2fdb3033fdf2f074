// `plexus conformance`: runs an installed conformance suite against a plugin file.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "command_line.hpp"
#include "commands.hpp"
#include "plexus/error.hpp"
#include "plexus/plugin_registry.hpp"

namespace plexus::tool {

namespace fs = std::filesystem;

namespace {

constexpr const char* conformance_usage = R"(usage: plexus conformance <kind> --plugin FILE [-- CATCH-OPTION...]

Runs the conformance suite of a plugin kind, the same one Plexus's own plugins pass,
against one plugin file (e.g. build/libplexus_scheduler_acme.so): kinds scheduler, memory
and cache. Exit status 0 when every check passes, 1 otherwise. Options after `--` go to
the suite (a Catch2 test program): `-- --list-tests`, `-- --success`, ...

  --plugin FILE  the plugin to check (its kind must be <kind>)
  --help         show this help
)";

// The suite per kind: test programs installed in <libexecdir>/plexus/conformance.
const std::map<std::string, std::string> suites = {
    {"scheduler", "scheduler_conformance"},
    {"memory", "memory_conformance"},
    {"cache", "cache_store_conformance"},
};

fs::path suite_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw error(error_category::io, "cannot find this program's file: " + ec.message());
  return (self.parent_path() / PLEXUS_CONFORMANCE_FROM_BIN).lexically_normal();
}

}  // namespace

int conformance_command(const std::vector<std::string>& args) {
  CommandLine line(args, {"plugin"}, {"help"});
  if (line.flag("help")) {
    std::cout << conformance_usage;
    return 0;
  }
  std::string kinds;
  for (const auto& [kind, suite] : suites) kinds += (kinds.empty() ? "" : ", ") + kind;
  if (line.positional().size() != 1 || !line.value("plugin")) {
    throw error(error_category::invalid_argument,
                "expected a kind (" + kinds + ") and --plugin FILE; see `plexus conformance --help`");
  }
  const std::string& kind = line.positional()[0];
  const auto suite = suites.find(kind);
  if (suite == suites.end()) {
    throw error(error_category::invalid_argument,
                "no conformance suite for '" + kind + "'; there are: " + kinds);
  }
  const fs::path plugin = fs::absolute(*line.value("plugin"));
  const PluginListing listing = PluginRegistry::inspect(plugin);  // throws: why not a plugin
  if (to_string(listing.kind) != kind) {
    throw error(error_category::invalid_argument,
                plugin.string() + " is a " + std::string(to_string(listing.kind)) +
                    " plugin ('" + listing.name + "'), not a " + kind + " plugin");
  }
  const fs::path program = suite_dir() / suite->second;
  if (!fs::is_regular_file(program)) {
    throw error(error_category::io,
                "the " + kind + " conformance suite is not installed with this plexus (" +
                    program.string() + " is missing; it is built with the tests, "
                    "BUILD_TESTING=ON)");
  }
  std::cout << "plexus conformance: " << kind << " '" << listing.name << "' (" << plugin.string()
            << ")\n" << std::flush;

  std::vector<std::string> argv_strings = {program.string(), "[conformance]"};
  for (const auto& option : line.passthrough()) argv_strings.push_back(option);
  std::vector<char*> argv;
  for (auto& arg : argv_strings) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) throw error(error_category::io, "cannot start " + program.string());
  if (child == 0) {
    setenv("PLEXUS_CONFORMANCE_PLUGIN", plugin.c_str(), 1);
    execv(program.c_str(), argv.data());
    std::cerr << "plexus conformance: cannot run " << program.string() << "\n";
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw error(error_category::io, "waiting for " + program.string() + " failed");
  }
  const bool passed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::cout << "plexus conformance: " << kind << " '" << listing.name << "' "
            << (passed ? "passes" : "FAILS") << " the conformance suite\n";
  return passed ? 0 : 1;
}

}  // namespace plexus::tool
