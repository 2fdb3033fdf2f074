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
  --set KEY=VALUE   one more config: the first --config (else the config in force, then
                    config A) with one override: a selection (scheduler=heft, memory=exact,
                    backends=host), a component option (scheduler.dag.workers=1) or a key
                    (graphs.auto=false: automatic replay off); repeat
  --runs N          measured runs per config (default 5; at least 1)
  --warmup K        runs per config before measuring, discarded (default 1)
  --timeout S       seconds one run may take before it is killed (default 600; 0: none)
  --out DIR         keep the runs' traces, summaries and logs in DIR (open a trace in
                    ui.perfetto.dev); without it they go to a temporary directory under
                    $TMPDIR that is removed at the end (kept when a run fails)
  --csv FILE        the raw numbers, one row per run
  --json FILE       the raw numbers and statistics per config
  --svg FILE        Gantt charts of one representative run per config (time waited while
                    ready, critical path, ratio and noise verdict) and a box plot
)";

std::string letter(std::size_t index) {
  return index < 26 ? std::string(1, static_cast<char>('A' + index))
                    : "C" + std::to_string(index + 1);
}

// The config in force as one self-contained TOML file for another directory: it starts from
// nothing (`[config] base = "none"`: every layer is already in it) and `[plugins] paths` are
// absolute (they are relative to the file that named them).
std::string relocatable_toml(const Config& config) {
  toml::table table = toml::parse(config.to_toml());
  table.insert_or_assign("config", toml::table{{"base", "none"}});
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
      throw usage_error("--config '" + path + "': no such file");
    }
    Config::load(fs::path(path));  // a bad config is reported here, not by every run
    configs.push_back({letter(configs.size()), path, fs::absolute(path).string(), {}, {}});
  }
  if (configs.empty() && !line.values("set").empty()) {
    // No --config: A is the config in force, each --set one more.
    const Config config = Config::load();
    const fs::path path = out / "config-A.toml";
    std::ofstream(path) << relocatable_toml(config);
    configs.push_back({"A", "the config in force (" + config.origin().path + ")", path.string(), {}, {}});
  }
  for (const auto& setting : line.values("set")) {
    const auto eq = setting.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw usage_error("--set '" + setting + "': expected KEY=VALUE, e.g. scheduler=heft");
    }
    // The first --config (else the config in force) layered as a run would see it.
    const std::string base_path = line.values("config").empty() ? "" : configs.front().path;
    Config config = base_path.empty() ? Config::load() : Config::load(fs::path(base_path));
    const std::string key = setting.substr(0, eq);
    // An environment override of the key ("PLEXUS_AUTO_GRAPH=1") is in the file already;
    // in the run it would override the --set value again: the run goes without it.
    std::vector<std::string> unset;
    const std::string before = config.origin_of(key);
    if (before.starts_with("PLEXUS_") && before.find('=') != std::string::npos)
      unset.push_back(before.substr(0, before.find('=')));
    config.set(key, setting.substr(eq + 1), "--set " + setting);
    const std::string label = letter(configs.size());
    const fs::path path = out / ("config-" + label + ".toml");
    std::ofstream(path) << relocatable_toml(config);
    configs.push_back({label, configs.front().name + " + " + setting, path.string(), std::move(unset), {}});
  }
  if (configs.size() < 2) {
    throw usage_error("plexus ab compares two or more configs: give --config twice, or --config and "
                "--set (plexus ab --help)");
  }
  return configs;
}

// Where the runs' files go: --out DIR (kept), else a new temporary directory that is
// removed when `plexus ab` returns, unless keep is set (a run failed: its log is there).
struct OutputDirectory {
  fs::path path;
  bool temporary = false;
  bool keep = false;
  ~OutputDirectory() {
    std::error_code ignored;
    if (temporary && !keep) fs::remove_all(path, ignored);
  }
};

void open_output_directory(const CommandLine& line, OutputDirectory& out) {
  if (auto dir = line.value("out")) {
    fs::create_directories(*dir);
    out.path = fs::absolute(*dir);
    return;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/plexus-ab-XXXXXX";
  if (!::mkdtemp(pattern.data())) {
    throw error(error_category::io, "cannot create a directory like '" + pattern + "'");
  }
  out.path = pattern;
  out.temporary = true;
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
      RunResult result = run_once(program, config.path, config.unset_environment, trace, timeout,
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
    throw usage_error("unexpected '" + line.positional().front() + "': put the program after '--'");
  }
  const std::vector<std::string>& program = line.passthrough();
  if (program.empty()) {
    throw usage_error("no program to run: plexus ab --config A.toml --config B.toml -- PROGRAM ARGS...");
  }
  const std::size_t runs = line.count("runs", 5, 1, 100000);
  const std::size_t warmup = line.count("warmup", 1, 0, 100000);
  const double timeout = static_cast<double>(line.count("timeout", 600, 0, 100000000));
  OutputDirectory output;
  open_output_directory(line, output);
  const fs::path& out = output.path;
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
  std::cout << "  traces, summaries and logs: " << out.string()
            << (output.temporary ? " (removed at the end; --out DIR keeps them)" : "") << "\n"
            << std::flush;

  try {
    run_rounds(configs, program, out, warmup, runs, timeout);
  } catch (const error& failure) {
    output.keep = true;
    std::cerr << "plexus ab: error: " << failure.what() << "\n";
    if (output.temporary) std::cerr << "plexus ab: the runs' files are kept in " << out.string() << "\n";
    return 1;
  }
  std::cout << "\n";
  print_report(std::cout, configs);
  if (auto csv = line.value("csv")) write_csv(*csv, configs);
  if (auto json = line.value("json")) write_json(*json, configs);
  if (auto svg = line.value("svg"))
    write_svg(*svg, configs, {command, runs, warmup, machine_description()});
  return 0;
}

}  // namespace plexus::tool
