// Config::load: the search order and the environment overrides.
#include <cstdlib>
#include <filesystem>
#include <string>

#include "config_impl.hpp"
#include "plexus/error.hpp"

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

bool is_file(const fs::path& path) {
  std::error_code ignored;
  return fs::is_regular_file(path, ignored);
}

}  // namespace

Config Config::load(const std::optional<std::filesystem::path>& explicit_path) {
  std::optional<Config> config;
  if (explicit_path) {
    config = from_file(*explicit_path, ConfigSource::argument);
  } else if (const char* env = non_empty_env("PLEXUS_CONFIG")) {
    if (!is_file(env)) {
      throw error(error_category::config, std::string("PLEXUS_CONFIG names '") + env +
                                              "', which is not a readable file");
    }
    config = from_file(env, ConfigSource::environment);
  } else if (is_file("plexus.toml")) {
    config = from_file(fs::absolute("plexus.toml"), ConfigSource::working_directory);
  } else if (auto user = user_config_file(); user && is_file(*user)) {
    config = from_file(*user, ConfigSource::user_config_dir);
  } else {
    config = from_string(builtin_text(), "<built-in default>");
  }
  detail::apply_environment_overrides(*config);
  return std::move(*config);
}

namespace detail {

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
  if (const char* size = non_empty_env("PLEXUS_PROGRAM_CACHE_MAX_BYTES")) {
    config.set("program_cache.max_bytes", size,
               std::string("PLEXUS_PROGRAM_CACHE_MAX_BYTES=") + size);
  }
}

}  // namespace detail
}  // namespace plexus
