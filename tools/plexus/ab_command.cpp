// plexus ab: runs one program alternately under several configs and compares the runs.
#include <toml++/toml.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ab_report.hpp"
#include "ab_run.hpp"
#include "ab_svg.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "plexus/config.hpp"
#include "plexus/error.hpp"

namespace plexus::tool {
namespace {

namespace fs = std::filesystem;

constexpr const char* ab_usage =
    R"(usage: plexus ab [--config FILE]... [--set KEY=VALUE]... [options] -- PROGRAM ARGS...

Runs PROGRAM alternately under each config (A B A B ..., so drift affects all), passing the
config in PLEXUS_CONFIG and a per-run trace file in PLEXUS_TRACE, reads each run's trace
summary and prints per config the median [min-max] makespan and wall time, tasks, copies,
bytes moved, per-device utilisation, and each config's makespan ratio to the first (A).

  --config FILE     a config to compare (repeat; two or more, or one with --set)
  --set KEY=VALUE   one more config: the first --config (else the config in force) with
                    one override (scheduler=heft, memory=exact, backends=host, ...); repeat
  --runs N          measured runs per config (default 5)
  --warmup K        runs per config before measuring, discarded (default 1)
  --timeout S       seconds one run may take before it is killed (default 600; 0: none)
  --out DIR         where the runs' traces, summaries and logs go (default: a new
                    directory under $TMPDIR); open a trace in ui.perfetto.dev
  --csv FILE        the raw numbers, one row per run
  --json FILE       the raw numbers and statistics per config
  --svg FILE        Gantt charts of one representative run per config and a box plot
)";

std::string letter(std::size_t index) {
  return index < 26 ? std::string(1, static_cast<char>('A' + index))
                    : "C" + std::to_string(index + 1);
}

// The config as TOML for a file in another directory: `[plugins] paths` made absolute (they
// are relative to the config file's directory).
std::string relocatable_toml(const Config& config) {
  toml::table table = toml::parse(config.to_toml());
  const auto paths = config.plugin_paths();
  if (!paths.empty()) {
    toml::array absolute;
    for (const auto& path : paths) absolute.push_back(fs::absolute(path).string());
    if (!table.contains("plugins")) table.insert("plugins", toml::table{});
    table["plugins"].as_table()->insert_or_assign("paths", std::move(absolute));
  }
  std::ostringstream out;
  out << table << "\n";
  return out.str();
}

std::vector<AbConfig> configs_from(const CommandLine& line, const fs::path& out) {
  std::vector<AbConfig> configs;
  for (const auto& path : line.values("config")) {
    if (!fs::is_regular_file(path)) {
      throw error(error_category::invalid_argument, "--config '" + path + "': no such file");
    }
    Config::from_file(path);  // a bad config is reported here, not by every run
    configs.push_back({letter(configs.size()), path, fs::absolute(path).string(), {}});
  }
  for (const auto& setting : line.values("set")) {
    const auto eq = setting.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw error(error_category::invalid_argument,
                  "--set '" + setting + "': expected KEY=VALUE, e.g. scheduler=heft");
    }
    const std::string base_path = configs.empty() ? "" : configs.front().path;
    Config config = base_path.empty() ? Config::load() : Config::from_file(base_path);
    config.set(setting.substr(0, eq), setting.substr(eq + 1), "--set " + setting);
    const std::string label = letter(configs.size());
    const fs::path path = out / ("config-" + label + ".toml");
    std::ofstream(path) << relocatable_toml(config);
    const std::string base_name = configs.empty() ? config.origin().path : configs.front().name;
    configs.push_back({label, base_name + " + " + setting, path.string(), {}});
  }
  if (configs.size() < 2) {
    throw error(error_category::invalid_argument,
                "plexus ab compares two or more configs: give --config twice, or --config and "
                "--set (plexus ab --help)");
  }
  return configs;
}

std::size_t count_option(const CommandLine& line, const std::string& name, std::size_t fallback) {
  const auto value = line.value(name);
  if (!value) return fallback;
  char* end = nullptr;
  const long parsed = std::strtol(value->c_str(), &end, 10);
  if (value->empty() || *end || parsed < 0 || parsed > 100000) {
    throw error(error_category::invalid_argument,
                "--" + name + " '" + *value + "': expected a whole number >= 0");
  }
  return static_cast<std::size_t>(parsed);
}

fs::path output_directory(const CommandLine& line) {
  if (auto dir = line.value("out")) {
    fs::create_directories(*dir);
    return fs::absolute(*dir);
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/plexus-ab-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    throw error(error_category::io, "cannot create a directory like '" + pattern + "'");
  }
  return pattern;
}

// Warm-up rounds, then measured ones; each round runs every config once, in order.
void run_rounds(std::vector<AbConfig>& configs, const std::vector<std::string>& program,
                const fs::path& out, std::size_t warmup, std::size_t runs, double timeout) {
  for (std::size_t round = 0; round < warmup + runs; ++round) {
    const bool measured = round >= warmup;
    for (auto& config : configs) {
      const std::string tag = measured ? "run-" + std::to_string(round - warmup + 1)
                                       : "warmup-" + std::to_string(round + 1);
      const std::string trace = (out / (config.label + "-" + tag + ".json")).string();
      RunResult result = run_once(program, config.path, trace, timeout,
                                  "config " + config.label + " (" + config.name + "), " + tag);
      if (measured) config.runs.push_back(std::move(result));
    }
  }
}

}  // namespace

int ab_command(const std::vector<std::string>& args) {
  const CommandLine line(
      args, {"config", "set", "runs", "warmup", "timeout", "out", "csv", "json", "svg"}, {"help"});
  if (line.flag("help")) {
    std::cout << ab_usage;
    return 0;
  }
  if (!line.positional().empty()) {
    throw error(error_category::invalid_argument,
                "unexpected '" + line.positional().front() + "': put the program after '--'");
  }
  const std::vector<std::string>& program = line.passthrough();
  if (program.empty()) {
    throw error(error_category::invalid_argument,
                "no program to run: plexus ab --config A.toml --config B.toml -- PROGRAM ARGS...");
  }
  const std::size_t runs = count_option(line, "runs", 5);
  const std::size_t warmup = count_option(line, "warmup", 1);
  const double timeout = static_cast<double>(count_option(line, "timeout", 600));
  if (runs == 0) throw error(error_category::invalid_argument, "--runs must be at least 1");
  const fs::path out = output_directory(line);
  std::vector<AbConfig> configs = configs_from(line, out);
  for (const char* variable : {"PLEXUS_SCHEDULER", "PLEXUS_MEMORY", "PLEXUS_CACHE",
                               "PLEXUS_COMPILER", "PLEXUS_BACKENDS", "PLEXUS_FUSION"}) {
    if (const char* value = std::getenv(variable); value && *value) {
      std::cerr << "plexus ab: warning: " << variable << "=" << value
                << " is set and overrides every config alike\n";
    }
  }

  std::string command;
  for (const auto& arg : program) command += (command.empty() ? "" : " ") + arg;
  std::cout << "plexus ab: " << configs.size() << " configs, " << runs << " runs each (+" << warmup
            << " warm-up), alternating; program: " << command << "\n";
  for (const auto& config : configs)
    std::cout << "  " << config.label << ": " << config.name << "\n";
  std::cout << "  traces, summaries and logs: " << out.string() << "\n" << std::flush;

  try {
    run_rounds(configs, program, out, warmup, runs, timeout);
  } catch (const error& failure) {
    std::cerr << "plexus ab: error: " << failure.what() << "\n";
    return 1;
  }
  std::cout << "\n";
  print_report(std::cout, configs);
  if (auto csv = line.value("csv")) write_csv(*csv, configs);
  if (auto json = line.value("json")) write_json(*json, configs);
  if (auto svg = line.value("svg")) write_svg(*svg, configs);
  return 0;
}

}  // namespace plexus::tool
