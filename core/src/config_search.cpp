// Config::load: the layers (built-in default, system, user and project files), the
// environment overrides, and warnings about PLEXUS_* variables nothing reads.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "closest_name.hpp"
#include "config_impl.hpp"
#include "plexus/error.hpp"

extern char** environ;

namespace plexus {

namespace {

namespace fs = std::filesystem;

const char* non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

std::optional<fs::path> user_config_file() {
  fs::path dir;
  if (const char* xdg = non_empty_env("XDG_CONFIG_HOME")) {
    dir = xdg;
  } else if (const char* home = non_empty_env("HOME")) {
    dir = fs::path(home) / ".config";
  } else {
    return std::nullopt;
  }
  return dir / "plexus" / "plexus.toml";
}

// <dir>/plexus/plexus.toml for each $XDG_CONFIG_DIRS entry (default /etc/xdg), lowest first.
std::vector<fs::path> system_config_files() {
  const char* dirs = non_empty_env("XDG_CONFIG_DIRS");
  std::vector<fs::path> files;
  std::istringstream list(dirs ? dirs : "/etc/xdg");
  for (std::string dir; std::getline(list, dir, ':');) {
    if (!dir.empty()) files.push_back(fs::path(dir) / "plexus" / "plexus.toml");
  }
  std::reverse(files.begin(), files.end());
  return files;
}

bool is_file(const fs::path& path) {
  std::error_code ignored;
  return fs::is_regular_file(path, ignored);
}

// The project file: the explicit path, else PLEXUS_CONFIG, else ./plexus.toml.
std::optional<ConfigOrigin> project_file(const std::optional<fs::path>& explicit_path) {
  if (explicit_path) return ConfigOrigin{ConfigSource::argument, explicit_path->string()};
  if (const char* env = non_empty_env("PLEXUS_CONFIG")) {
    if (!is_file(env)) {
      throw error(error_category::config, std::string("PLEXUS_CONFIG names '") + env +
                                              "', which is not a readable file");
    }
    return ConfigOrigin{ConfigSource::environment, env};
  }
  if (is_file("plexus.toml")) {
    return ConfigOrigin{ConfigSource::working_directory, fs::absolute("plexus.toml").string()};
  }
  return std::nullopt;
}

// Every PLEXUS_* variable Plexus reads (docs/configuration.md, "Environment variables").
const std::vector<std::string>& known_variables() {
  static const std::vector<std::string> names = {
      // the config
      "PLEXUS_CONFIG", "PLEXUS_SCHEDULER", "PLEXUS_MEMORY", "PLEXUS_CACHE", "PLEXUS_COMPILER",
      "PLEXUS_FUSION", "PLEXUS_BACKENDS", "PLEXUS_LOG_LEVEL", "PLEXUS_TRACE",
      "PLEXUS_PROGRAM_CACHE_MAX_BYTES", "PLEXUS_PLUGIN_PATH", "PLEXUS_AUTO_GRAPH",
      // components
      "PLEXUS_CACHE_DIR", "PLEXUS_HEFT_HISTORY", "PLEXUS_LIBCLC_DIR",
      "PLEXUS_CLANG_RESOURCE_DIR", "PLEXUS_HOST_DEVICE_LIBRARY", "PLEXUS_LLVM_TOOLS_DIR",
      "PLEXUS_LLVM_SPIRV", "PLEXUS_HOST_DUMP_IR", "PLEXUS_CUDA_LAUNCH_THREAD",
      "PLEXUS_CUDA_LAUNCH_SPIN_US", "PLEXUS_CUDA_COMPLETION_BATCH_US",
      "PLEXUS_CUDA_COMPLETION_GRACE_US",
      "PLEXUS_CUDA_COMPLETION_WAIT", "PLEXUS_CUDA_GRAPHS", "PLEXUS_OPENCL_COMMAND_BUFFERS",
      "PLEXUS_KERNEL_CHECKS", "PLEXUS_KERNEL_CANCEL", "PLEXUS_HIP_GRAPHS",
      "PLEXUS_LEVEL_ZERO_GRAPHS", "PLEXUS_SYCL_COLLECTIVES_DIR", "PLEXUS_KEEP_PLUGINS_LOADED",
      // set by `plexus conformance` for the suite it runs
      "PLEXUS_CONFORMANCE_PLUGIN",
      // the mpi backend's test hooks (backends/mpi: a worker killed, messages damaged, a
      // version changed, short receives), read by the ranks of the tests that set them
      "PLEXUS_MPI_TEST_KILL", "PLEXUS_MPI_TEST_CORRUPT", "PLEXUS_MPI_TEST_VERSION",
      "PLEXUS_MPI_TEST_RECEIVE_BYTES",
      // the test suite and benchmarks (also any PLEXUS_TEST_* and PLEXUS_BENCH_*)
      "PLEXUS_BUILD_PLUGIN_DIR", "PLEXUS_BINARY_DIR", "PLEXUS_SOURCE_DIR"};
  return names;
}

}  // namespace

Config Config::load(const std::optional<std::filesystem::path>& explicit_path) {
  auto impl = std::make_shared<Impl>();
  impl->layers.push_back({{ConfigSource::builtin, "<built-in default>"}, std::string(builtin_text())});
  for (const auto& file : system_config_files()) {
    if (is_file(file)) {
      impl->layers.push_back({{ConfigSource::system_config_dir, file.string()}, detail::read_config_text(file)});
    }
  }
  if (auto user = user_config_file(); user && is_file(*user)) {
    impl->layers.push_back({{ConfigSource::user_config_dir, user->string()}, detail::read_config_text(*user)});
  }
  if (auto project = project_file(explicit_path)) {
    impl->layers.push_back({*project, detail::read_config_text(project->path)});
  }
  impl->warnings = detail::unknown_environment_variables();
  impl->merge();
  Config config(std::move(impl));
  detail::apply_environment_overrides(config);
  return config;
}

namespace detail {

std::string read_config_text(const std::filesystem::path& path) {
  std::error_code ignored;
  if (fs::is_directory(path, ignored)) {
    throw error(error_category::config,
                "cannot read config file '" + path.string() + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw error(error_category::config, "cannot read config file '" + path.string() + "': " +
                                            (fs::exists(path) ? "permission denied or not a file"
                                                              : "no such file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void apply_environment_overrides(Config& config) {
  for (ComponentKind kind : all_component_kinds) {
    std::string table(config_table_name(kind));
    std::string variable = "PLEXUS_";
    for (char c : table) variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (const char* value = non_empty_env(variable.c_str())) {
      config.set(table, value, variable + "=" + value);
    }
  }
  if (const char* level = non_empty_env("PLEXUS_LOG_LEVEL")) {
    config.set("log.level", level, std::string("PLEXUS_LOG_LEVEL=") + level);
  }
  if (const char* file = non_empty_env("PLEXUS_TRACE")) {
    config.set("trace.file", file, std::string("PLEXUS_TRACE=") + file);
  }
  if (const char* automatic = non_empty_env("PLEXUS_AUTO_GRAPH")) {
    const std::string value = automatic;
    if (value != "0" && value != "1")
      throw error(error_category::config, "PLEXUS_AUTO_GRAPH=" + value +
                                              ": expected 0 (automatic replay off) or 1 (on)");
    config.set("graphs.auto", value == "1" ? "true" : "false", "PLEXUS_AUTO_GRAPH=" + value);
  }
  if (const char* size = non_empty_env("PLEXUS_PROGRAM_CACHE_MAX_BYTES")) {
    config.set("program_cache.max_bytes", size,
               std::string("PLEXUS_PROGRAM_CACHE_MAX_BYTES=") + size);
  }
}

std::vector<std::string> unknown_environment_variables() {
  std::vector<std::string> warnings;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const std::string name(text.substr(0, text.find('=')));
    if (!name.starts_with("PLEXUS_") || name.starts_with("PLEXUS_TEST_") ||
        name.starts_with("PLEXUS_BENCH_")) {
      continue;
    }
    const auto& known = known_variables();
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    warnings.push_back("environment variable " + name + " is not one Plexus reads (ignored)" +
                       did_you_mean(name, known, ""));
  }
  return warnings;
}

}  // namespace detail
}  // namespace plexus
